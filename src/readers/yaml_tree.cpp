#include "readers/yaml_tree.h"

#include <memory>
#include <unordered_map>
#include <sstream>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/parser.h>

#include "attnmark/base/error.h"
#include "base/text.h"

namespace attnmark {
namespace {

// A longer source line is not copied into an error for the caret.
constexpr std::size_t max_source_line_bytes = 200;

// A place-carrying failure raised inside the event handler.
struct Stop {
  int line;
  int column;
  std::string message;
};

// Builds YamlNodes from yaml-cpp's parser events.
class TreeBuilder : public YAML::EventHandler {
 public:
  TreeBuilder(std::string_view text, const YamlLimits& limits) : text_(text), limits_(limits) {}

  YamlNode take() { return std::move(root_); }
  bool done() const { return has_root_; }

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    check_anchor(mark, anchor);
    add(node(YamlNode::Kind::null, mark));
  }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override {
    throw Stop{mark.line + 1, mark.column + 1, "aliases (*name) are not allowed; write the value out"};
  }
  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    check_anchor(mark, anchor);
    check_tag(mark, tag);
    check_closed(mark);
    YamlNode n = node(YamlNode::Kind::scalar, mark);
    n.text = value;
    n.plain = tag == "?";
    add(std::move(n));
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    open(YamlNode::Kind::sequence, mark, tag, anchor);
  }
  void OnSequenceEnd() override { close(); }
  void OnMapStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    open(YamlNode::Kind::map, mark, tag, anchor);
  }
  void OnMapEnd() override { close(); }
  void OnAnchor(const YAML::Mark& mark, const std::string&) override {
    throw Stop{mark.line + 1, mark.column + 1, "anchors (&name) are not allowed; write the value out"};
  }

 private:
  // An open sequence or map, and for a map the key waiting for its value.
  struct Open {
    YamlNode node;
    std::unique_ptr<YamlNode> key;
    std::unordered_map<std::string, int> lines;  // key → its line, for duplicates in O(1)
  };

  YamlNode node(YamlNode::Kind kind, const YAML::Mark& mark) {
    if (++count_ > limits_.max_nodes)
      throw Stop{mark.line + 1, mark.column + 1,
                 "too many values (more than " + std::to_string(limits_.max_nodes) + ")"};
    YamlNode n;
    n.kind = kind;
    n.line = mark.line + 1;
    n.column = mark.column + 1;
    return n;
  }
  void check_anchor(const YAML::Mark& mark, YAML::anchor_t anchor) {
    if (anchor != 0)
      throw Stop{mark.line + 1, mark.column + 1, "anchors (&name) are not allowed; write the value out"};
  }
  // yaml-cpp 0.7 takes a quoted value that is never closed for one that
  // ends with the file, when a line break ends the file ("a: \"abc\n"):
  // look for the closing quote from the opening one. Linear overall, since
  // quoted values do not overlap.
  void check_closed(const YAML::Mark& mark) {
    if (mark.pos < 0 || static_cast<std::size_t>(mark.pos) >= text_.size()) return;
    const std::size_t start = static_cast<std::size_t>(mark.pos);
    const char quote = text_[start];
    if (quote != '"' && quote != '\'') return;  // plain, block or tagged
    for (std::size_t i = start + 1; i < text_.size(); ++i) {
      if (quote == '"' && text_[i] == '\\') {
        ++i;
      } else if (text_[i] == quote) {
        if (quote == '\'' && i + 1 < text_.size() && text_[i + 1] == '\'') {
          ++i;  // '' is a quote inside single quotes
          continue;
        }
        return;
      }
    }
    throw Stop{mark.line + 1, mark.column + 1, "a quoted value is never closed; add the missing quote"};
  }
  void check_tag(const YAML::Mark& mark, const std::string& tag) {
    if (tag != "?" && tag != "!" && !tag.empty())
      throw Stop{mark.line + 1, mark.column + 1, "tags like " + quoted_printable(tag) + " are not allowed"};
  }
  void open(YamlNode::Kind kind, const YAML::Mark& mark, const std::string& tag,
            YAML::anchor_t anchor) {
    check_anchor(mark, anchor);
    check_tag(mark, tag);
    if (static_cast<int>(stack_.size()) >= limits_.max_depth)
      throw Stop{mark.line + 1, mark.column + 1,
                 "nested deeper than " + std::to_string(limits_.max_depth) + " levels"};
    stack_.push_back(Open{node(kind, mark), nullptr, {}});
  }
  void close() {
    YamlNode finished = std::move(stack_.back().node);
    stack_.pop_back();
    add(std::move(finished));
  }
  void add(YamlNode n) {
    if (stack_.empty()) {
      root_ = std::move(n);
      has_root_ = true;
      return;
    }
    Open& top = stack_.back();
    if (top.node.kind == YamlNode::Kind::sequence) {
      top.node.items.push_back(std::move(n));
    } else if (!top.key) {
      if (n.kind != YamlNode::Kind::scalar)
        throw Stop{n.line, n.column, "a key must be a plain word, not a list, map or empty value"};
      const auto [first, added] = top.lines.emplace(n.text, n.line);
      if (!added)
        throw Stop{n.line, n.column,
                   "duplicate key " + quoted_printable(n.text) + " (first given at line " +
                       std::to_string(first->second) + ")"};
      top.key = std::make_unique<YamlNode>(std::move(n));
    } else {
      // yaml-cpp places an empty value at the next token (often the next
      // line, or past the end): report it at its key instead.
      if (n.kind == YamlNode::Kind::null) {
        n.line = top.key->line;
        n.column = top.key->column;
      }
      top.node.entries.push_back(YamlEntry{std::move(*top.key), std::move(n)});
      top.key.reset();
    }
  }

  std::string_view text_;
  const YamlLimits& limits_;
  std::vector<Open> stack_;
  YamlNode root_;
  bool has_root_ = false;
  std::size_t count_ = 0;
};

}  // namespace

const YamlNode* YamlNode::find(std::string_view key) const {
  for (const YamlEntry& e : entries)
    if (e.key.text == key) return &e.value;
  return nullptr;
}

std::string source_line(std::string_view text, int line) {
  std::size_t start = 0;
  for (int i = 1; i < line; ++i) {
    const std::size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) return {};
    start = nl + 1;
  }
  std::size_t end = text.find('\n', start);
  if (end == std::string_view::npos) end = text.size();
  if (end > start && text[end - 1] == '\r') --end;
  if (end - start > max_source_line_bytes) return {};
  std::string out(text.substr(start, end - start));
  // One for one, so a caret under a column still lines up; tabs stay.
  for (char& c : out)
    if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7F) c = '?';
  return out;
}

namespace {

// The 1-based number of the first line whose indentation holds a tab, or 0.
int first_tab_indented_line(std::string_view text) {
  int line = 1;
  bool at_start = true;  // only spaces and tabs so far on this line
  for (char c : text) {
    if (c == '\n') {
      ++line;
      at_start = true;
    } else if (at_start && c == '\t') {
      return line;
    } else if (c != ' ' && c != '\r') {
      at_start = false;
    }
  }
  return 0;
}

}  // namespace

YamlNode parse_yaml(std::string_view original, const std::string& file, const YamlLimits& limits) {
  std::string_view text = original;
  std::string normalised;  // the text yaml-cpp reads, when it differs
  auto fail = [&](int line, int column, const std::string& message) -> Error {
    return Error(file, line, column, message, source_line(text, line));
  };
  // yaml-cpp would guess at UTF-16 and pass any bytes through; only UTF-8
  // text gets to it, so every message and value below is valid UTF-8.
  if (std::string problem = input_problem(text, limits.max_bytes); !problem.empty())
    throw Error(file, 0, 0, std::move(problem));
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // columns do not count a BOM
  // yaml-cpp 0.7 takes a lone CR (old Mac line ends) for text, not a line
  // break: make it LF, byte for byte, so lines and columns stay the same.
  const std::size_t cr = text.find('\r');
  if (cr != std::string_view::npos) {
    normalised.assign(text);
    for (std::size_t i = cr; i < normalised.size(); ++i)
      if (normalised[i] == '\r' && (i + 1 == normalised.size() || normalised[i + 1] != '\n')) normalised[i] = '\n';
    text = normalised;
  }
  std::istringstream in{std::string(text)};
  YAML::Parser parser(in);
  TreeBuilder builder(text, limits);
  try {
    // Only two calls, ever: one document, then proof there is no second.
    // (LoadAll would loop for ever on input like ",".)
    if (!parser.HandleNextDocument(builder) || !builder.done())
      throw fail(1, 1, "the file is empty; expected a YAML document");
    YamlNode root = builder.take();
    // A second document: report where it starts.
    struct Second : YAML::EventHandler {
      int line = 0, column = 0;
      void mark(const YAML::Mark& m) {
        if (line == 0) { line = m.line + 1; column = m.column + 1; }
        throw Stop{line, column, "expected one YAML document, but more follows here"};
      }
      void OnDocumentStart(const YAML::Mark& m) override { line = m.line + 1; column = m.column + 1; }
      void OnDocumentEnd() override {}
      void OnNull(const YAML::Mark& m, YAML::anchor_t) override { mark(m); }
      void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { mark(m); }
      void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t, const std::string&) override { mark(m); }
      void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override { mark(m); }
      void OnSequenceEnd() override {}
      void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override { mark(m); }
      void OnMapEnd() override {}
    } second;
    if (parser.HandleNextDocument(second))
      throw fail(second.line, second.column, "expected one YAML document, but more follows here");
    return root;
  } catch (const Stop& stop) {
    throw fail(stop.line, stop.column, stop.message);
  } catch (const YAML::DeepRecursion& e) {
    // Unreachable while max_depth is below yaml-cpp's own guard (2000), kept
    // so a larger max_depth still gives the same message.
    throw fail(e.mark.line + 1, e.mark.column + 1,
               "nested deeper than " + std::to_string(limits.max_depth) + " levels");
  } catch (const YAML::Exception& e) {
    // A tab in the indentation is the commonest cause, and yaml-cpp's words
    // for it ("end of map not found") do not say so: the first such line is named.
    if (const int line = first_tab_indented_line(text))
      throw fail(line, 1, "YAML indents with spaces, not tabs; replace the tab at the start of line " +
                              std::to_string(line));
    // yaml-cpp's words for a missing closing quote, said plainly.
    const std::string what = e.msg == YAML::ErrorMsg::EOF_IN_SCALAR
                                 ? "a quoted value is never closed; add the missing quote"
                                 : e.msg;
    throw fail(e.mark.line + 1, e.mark.column + 1, "YAML syntax: " + printable(what, 200));
  }
}

}  // namespace attnmark
