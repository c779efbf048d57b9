// The YAML reader closes yaml-cpp 0.7's traps; each is tested on its exact input.
#include "support/test_support.h"

#include "attnmark/base/error.h"
#include "readers/yaml_tree.h"

using attnmark::Error;
using attnmark::parse_yaml;
using attnmark::YamlNode;

namespace {
Error error_of(const std::string& text) {
  try {
    parse_yaml(text, "t.yaml");
  } catch (const Error& e) {
    return e;
  }
  FAIL("no error for: " << text);
  return Error("");
}
}  // namespace

TEST_CASE("a plain document keeps values and 1-based places") {
  const YamlNode doc = parse_yaml("a: [1, \"2\"]\nb: ~\n", "t.yaml");
  REQUIRE(doc.is_map());
  const YamlNode* a = doc.find("a");
  REQUIRE(a);
  CHECK(a->items[1].text == "2");
  CHECK_FALSE(a->items[1].plain);
  CHECK(a->items[0].line == 1);
  CHECK(a->items[0].column == 5);
  CHECK(doc.find("b")->is_null());
  CHECK(doc.find("c") == nullptr);
}

TEST_CASE("',' ends with an error instead of LoadAll's endless loop") {
  const Error e = error_of(",");
  CHECK(e.line() == 1);
  CHECK(e.message() == "expected one YAML document, but more follows here");
}

TEST_CASE("trailing content is an error, not silently ignored") {
  const Error e = error_of("a: 1\n---\nb: 2\n");
  CHECK(e.line() == 2);
  CHECK(e.message() == "expected one YAML document, but more follows here");
  CHECK(error_of("- 1\n- 2\nx: 3\n").line() == 3);
}

TEST_CASE("duplicate keys are errors naming both lines") {
  const Error e = error_of("a: 1\nb: 2\na: 3\n");
  CHECK(e.line() == 3);
  CHECK(e.column() == 1);
  CHECK(e.message() == "duplicate key 'a' (first given at line 1)");
}

TEST_CASE("anchors and aliases are refused") {
  CHECK(error_of("a: &x 1\nb: *x\n").message() == "anchors (&name) are not allowed; write the value out");
  // The billion-laughs shape never gets to expand.
  CHECK(error_of("a: &a [1, 1]\nb: &b [*a, *a]\nc: [*b, *b]\n").line() == 1);
}

TEST_CASE("explicit tags, deep nesting and non-scalar keys are refused") {
  CHECK(error_of("a: !!str 1\n").message() == "tags like 'tag:yaml.org,2002:str' are not allowed");
  CHECK(error_of(std::string(100, '[') + std::string(100, ']')).message() == "nested deeper than 64 levels");
  CHECK(error_of("? [1]\n: 2\n").message() == "a key must be a plain word, not a list, map or empty value");
}

TEST_CASE("syntax errors and empty files have a place") {
  const Error e = error_of("a: 1\n]junk\n");
  CHECK(e.line() == 2);
  CHECK(e.column() == 1);
  CHECK(e.message() == "YAML syntax: illegal flow end");
  CHECK(error_of("").message() == "the file is empty; expected a YAML document");
  CHECK(error_of("# only a comment\n").message() == "the file is empty; expected a YAML document");
}

TEST_CASE("the size cap is checked before parsing") {
  attnmark::YamlLimits limits;
  limits.max_bytes = 10;
  try {
    parse_yaml("a: 12345678901", "big.yaml", limits);
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.message() == "file is 14 bytes; the limit is 10");
  }
}

TEST_CASE("a lone comma in every form ends at once with one error") {
  // The inputs on which YAML::LoadAll never returns; parse_yaml asks for at
  // most two documents, so it cannot loop.
  for (const char* text : {",", ",\n", ", ,", ",,,,"}) {
    INFO(text);
    const Error e = error_of(text);
    CHECK(e.line() == 1);
    CHECK(e.message() == "expected one YAML document, but more follows here");
  }
  const Error e = error_of("a: 1\n,");
  CHECK(e.line() == 2);
  CHECK(e.message() == "YAML syntax: end of map not found");
}

TEST_CASE("trailing content after a document end marker, or a flow collection, is an error") {
  CHECK(error_of("a: 1\n...\nb: 2\n").message() == "expected one YAML document, but more follows here");
  CHECK(error_of("[1, 2]\n[3]\n").message() == "expected one YAML document, but more follows here");
  CHECK(error_of("{a: 1, a: 2}").message() == "duplicate key 'a' (first given at line 1)");
  CHECK(error_of("a:\n  b: 1\n  b: 2\n").line() == 3);
}

TEST_CASE("100,000 open brackets, braces or '- ' stop at the depth cap, before yaml-cpp recurses") {
  const Error flow = error_of(std::string(100000, '[') + std::string(100000, ']'));
  CHECK(flow.message() == "nested deeper than 64 levels");
  CHECK(flow.line() == 1);
  CHECK(flow.column() == 65);
  CHECK(error_of(std::string(100000, '{')).message() == "nested deeper than 64 levels");
  std::string block;
  for (int i = 0; i < 50000; ++i) block += "- ";
  CHECK(error_of(block + "x\n").message() == "nested deeper than 64 levels");
}

TEST_CASE("a quoted value that is never closed is an error, even when a line break ends the file") {
  // yaml-cpp 0.7 alone accepts both of these.
  const Error e = error_of("a: \"abc\nb: 1\n");
  CHECK(e.line() == 1);
  CHECK(e.column() == 4);
  CHECK(e.message() == "a quoted value is never closed; add the missing quote");
  CHECK(error_of("a: 'it''s\n").message() == "a quoted value is never closed; add the missing quote");
  CHECK(error_of("a: \"abc").message() == "YAML syntax: a quoted value is never closed; add the missing quote");
  CHECK(parse_yaml("a: \"x\\\"y\"\nb: 'it''s'\n", "t.yaml").find("b")->text == "it's");
}

TEST_CASE("a BOM, CRLF and lone CR line ends read correctly") {
  for (const char* text : {"\xEF\xBB\xBF" "a: 1\r\nb: [2, 3]\r\n", "a: 1\rb: [2, 3]\r", "a: 1\nb: [2, 3]"}) {
    const YamlNode doc = parse_yaml(text, "t.yaml");
    REQUIRE(doc.find("b"));
    CHECK(doc.find("b")->items[1].text == "3");
    CHECK(doc.find("b")->line == 2);
    CHECK(doc.find("a")->column == 4);
  }
}

TEST_CASE("bytes that are not UTF-8 text are refused before yaml-cpp sees them") {
  CHECK(error_of(std::string("\xFF\xFE" "a\0:\0 \0" "1\0", 10)).message() == "UTF-16 text; save the file as UTF-8");
  CHECK(error_of(std::string("a\0:\0 \0" "1\0", 8)).message() == "UTF-16 text; save the file as UTF-8");
  CHECK(error_of(std::string("a: 1\0", 5)).message() == "binary file (contains NUL bytes)");
  CHECK(error_of("a: 1\nb: caf\xE9\n").message() == "not UTF-8 text (byte 0xE9 at line 2); save the file as UTF-8");
  CHECK(error_of("a: 1\nb: caf\xE9\n").line() == 0);
}

TEST_CASE("messages quoting the document stay on one line") {
  CHECK(error_of("\"a\\nb\": 1\n\"a\\nb\": 2\n").message() == "duplicate key 'a\\nb' (first given at line 1)");
  const Error e = error_of("a: 1\n\"\x1B[2J\": 2\n\"\x1B[2J\": 3\n");
  CHECK(e.message() == "duplicate key '\\x1B[2J' (first given at line 2)");
  CHECK(e.source_line() == "\"?[2J\": 3");  // control bytes shown as '?', one for one
}
