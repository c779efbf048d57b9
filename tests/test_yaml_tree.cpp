// The YAML reader closes yaml-cpp 0.7's traps; each is tested on its exact input.
#include <catch2/catch.hpp>

#include "attnmark/error.h"
#include "yaml_tree.h"

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
