// readers/yaml_tree.h: a YAML document read into plain nodes that remember their place.
//
// The only file that includes yaml-cpp is yaml_tree.cpp. It reads events, not
// yaml-cpp's Node, so the traps of yaml-cpp 0.7 are closed in one place:
// LoadAll's endless loop, Load ignoring a second document, duplicate keys
// kept silently, and aliases that explode or loop.
//
//   YamlNode doc = parse_yaml("a: [1, 2]\n", "x.yaml");
//   doc.find("a")->items[1].text;  // "2", at line 1, column 8
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace attnmark {

struct YamlEntry;

// One node of a YAML document.
struct YamlNode {
  enum class Kind { null, scalar, sequence, map };
  Kind kind = Kind::null;
  std::string text;    // scalars only
  bool plain = true;   // scalar written without quotes
  int line = 0;        // 1-based
  int column = 0;      // 1-based
  std::vector<YamlNode> items;                         // sequence
  std::vector<YamlEntry> entries;  // map, in file order

  // The value under a scalar key, or nullptr. REQUIRES: kind == map.
  const YamlNode* find(std::string_view key) const;
  bool is_null() const { return kind == Kind::null; }
  bool is_scalar() const { return kind == Kind::scalar; }
  bool is_sequence() const { return kind == Kind::sequence; }
  bool is_map() const { return kind == Kind::map; }
};

// One key and its value in a map.
struct YamlEntry {
  YamlNode key;
  YamlNode value;
};

// Bounds on what one document may cost to read.
struct YamlLimits {
  std::size_t max_bytes = 1 << 20;     // 1 MiB
  int max_depth = 64;                  // nested sequences and maps
  std::size_t max_nodes = 1'000'000;
};

// Reads exactly one YAML document. Throws Error(file, line, column, message)
// with the source line for a syntax error, a second document, an anchor or
// alias, an explicit tag, a duplicate or non-scalar key, or a broken limit.
// Checked before yaml-cpp sees a byte: the size ("file is N bytes; the limit
// is M") and the encoding (base/text.h's encoding_problem: UTF-16, UTF-32,
// NUL bytes, not UTF-8), both without a place. A UTF-8 BOM is skipped.
// The depth cap is met on the way down, before yaml-cpp recurses further, so
// 100,000 '[' give "nested deeper than 64 levels", not a stack overflow.
// Every message is one line: user text in it is escaped (base/text.h).
YamlNode parse_yaml(std::string_view text, const std::string& file,
                    const YamlLimits& limits = {});

// The text of 1-based line `line` of `text` (without its line ending), for a
// caret under an error; control bytes other than tab shown as '?'. Empty
// when there is no such line or it is longer than 200 bytes.
std::string source_line(std::string_view text, int line);

}  // namespace attnmark
