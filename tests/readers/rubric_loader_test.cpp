// The rubric loader: every definition mistake is an Error with its exact
// message, at the exact 1-based line and column, and every shipped rubric loads.
//
// Cases tagged [!mayfail] describe the behaviour the loader should have but
// (at the time of writing) does not; see the comment on each.
#include "support/test_support.h"

#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>

#include "attnmark/base/error.h"
#include "attnmark/lesson/rubric.h"
#include "readers/rubric_loader.h"

using namespace attnmark;

namespace {

// The lines joined with '\n', each ended by one: line numbers are easy to count.
std::string yaml(std::initializer_list<std::string_view> lines) {
  std::string out;
  for (std::string_view line : lines) {
    out += line;
    out += '\n';
  }
  return out;
}

// Lines 1-8: the lesson's Q1 without `ask:`. Tests append from line 9 on.
const std::string lesson_q1_head = yaml({
    "questions:",                                 // 1
    "  - task: one-token",                        // 2
    "    tokens: [bus, is, late]",                // 3
    "    query_token: late",                      // 4
    "    inputs:",                                // 5
    "      query: [1, 0]",                        // 6
    "      keys: [[2, 1], [0, 2], [1, 1]]",       // 7
    "      values: [[10, 0], [0, 10], [5, 5]]",   // 8
});

// Lines 1-9: a complete, valid question. Tests append from line 10 on.
const std::string lesson_q1 = lesson_q1_head + "    ask: [scores, weights, output]\n";  // 9

Rubric load(const std::string& text) { return load_rubric(text, "t.yaml"); }

Error error_of(const std::string& text) {
  try {
    load(text);
  } catch (const Error& e) {
    return e;
  }
  FAIL("accepted, but expected an error:\n" << text);
  return Error("");
}

// The text must be refused with exactly this place and message.
void require_error(const std::string& text, int line, int column, const std::string& message) {
  INFO("rubric:\n" << text);
  const Error e = error_of(text);
  INFO("got: " << e.report());
  REQUIRE(e.file() == "t.yaml");
  REQUIRE(e.line() == line);
  REQUIRE(e.column() == column);
  REQUIRE(e.message() == message);
}

// The same, for cases where only the start of the message is pinned down
// (the full wording is a [!mayfail] test of its own).
void require_error_starting(const std::string& text, int line, int column, const std::string& start) {
  INFO("rubric:\n" << text);
  const Error e = error_of(text);
  INFO("got: " << e.report());
  REQUIRE(e.line() == line);
  REQUIRE(e.column() == column);
  REQUIRE(e.message().rfind(start, 0) == 0);
}

const std::string q1_keys =
    "q1: unknown key '{}'{}; allowed here: 'id', 'title', 'prompt', 'task', 'tokens', "
    "'query_token', 'd_k', 'd_v', 'd_model', 'inputs', 'scale', 'mask', 'ask', 'marking' or "
    "'constraints'";

}  // namespace

// ---------------------------------------------------------------------------
// Unknown and duplicate keys, and what the YAML reader refuses.

TEST_CASE("an unknown top-level key is refused with a suggestion") {
  require_error("titel: x\n" + lesson_q1, 1, 1,
                "unknown key 'titel' (did you mean 'title'?); allowed here: 'name', 'title', "
                "'seed', 'reveal_answers' or 'questions'");
}

TEST_CASE("an unknown key far from every allowed key gets no suggestion") {
  require_error("colour: red\n" + lesson_q1, 1, 1,
                "unknown key 'colour'; allowed here: 'name', 'title', 'seed', 'reveal_answers' or "
                "'questions'");
}

TEST_CASE("an unknown key in a question is refused with a suggestion") {
  require_error(yaml({"questions:", "  - task: one-token", "    tokns: [a]"}), 3, 5,
                "q1: unknown key 'tokns' (did you mean 'tokens'?); allowed here: 'id', 'title', "
                "'prompt', 'task', 'tokens', 'query_token', 'd_k', 'd_v', 'd_model', 'inputs', "
                "'scale', 'mask', 'ask', 'marking' or 'constraints'");
}

TEST_CASE("an unknown key in a question names the question by its id") {
  require_error(yaml({"questions:", "  - id: late", "    promt: hi"}), 3, 5,
                "late: unknown key 'promt' (did you mean 'prompt'?); allowed here: 'id', 'title', "
                "'prompt', 'task', 'tokens', 'query_token', 'd_k', 'd_v', 'd_model', 'inputs', "
                "'scale', 'mask', 'ask', 'marking' or 'constraints'");
}

TEST_CASE("an unknown key in inputs is refused with a suggestion") {
  require_error(yaml({"questions:", "  - task: one-token", "    tokens: [bus, is, late]",
                      "    query_token: late", "    inputs:", "      query: [1, 0]",
                      "      key: [[2, 1], [0, 2], [1, 1]]"}),
                7, 7,
                "q1.inputs: unknown key 'key' (did you mean 'keys'?); allowed here: 'query', "
                "'queries', 'keys', 'values', 'embeddings', 'w_q', 'w_k' or 'w_v'");
}

TEST_CASE("an unknown key in a part's marking is refused with a suggestion") {
  require_error(lesson_q1 + yaml({"    marking:", "      scores: {marks: 1, mark: 2}"}), 11, 26,
                "q1.marking.scores: unknown key 'mark' (did you mean 'marks'?); allowed here: "
                "'marks', 'decimals', 'tolerance', 'credit', 'follow_through' or "
                "'follow_through_credit'");
}

TEST_CASE("an unknown key in a tolerance is refused with a suggestion") {
  require_error(lesson_q1 + yaml({"    marking:", "      weights:", "        tolerance: {absolut: 0.01}"}),
                12, 21,
                "q1.marking.weights.tolerance: unknown key 'absolut' (did you mean 'absolute'?); "
                "allowed here: 'absolute', 'relative', 'sigfigs' or 'decimals'");
}

TEST_CASE("an unknown key in constraints is refused with a suggestion") {
  require_error(lesson_q1 + yaml({"    constraints:", "      max_draw: 5"}), 11, 7,
                "q1.constraints: unknown key 'max_draw' (did you mean 'max_draws'?); allowed here: "
                "'max_abs_score', 'unique_top_weight', 'distinct_weights' or 'max_draws'");
}

TEST_CASE("an unknown key in a random grid is refused with a suggestion") {
  require_error(yaml({"questions:", "  - task: one-token", "    tokens: [bus, is, late]",
                      "    query_token: late", "    d_k: 2", "    inputs:",
                      "      query: {min: 0, max: 2, stp: 1}"}),
                7, 31,
                "q1.inputs.query: unknown key 'stp' (did you mean 'step'?); allowed here: 'min', "
                "'max' or 'step'");
}

TEST_CASE("an unknown key in a word bank is refused with a suggestion") {
  require_error(yaml({"questions:", "  - task: one-token", "    tokens:", "      bank: [a, b, c]",
                      "      cnt: 2"}),
                5, 7,
                "q1.tokens: unknown key 'cnt' (did you mean 'count'?); allowed here: 'bank' or 'count'");
}

TEST_CASE("a duplicate key is refused, naming the first") {
  require_error(yaml({"questions:", "  - task: one-token", "    task: all-tokens"}), 3, 5,
                "duplicate key 'task' (first given at line 2)");
}

TEST_CASE("an anchor is refused") {
  require_error(yaml({"questions:", "  - task: &t one-token"}), 2, 11,
                "anchors (&name) are not allowed; write the value out");
}

TEST_CASE("an alias is refused where it stands") {
  // An alias can only refer to an anchor, and anchors are refused first, so
  // a lone alias is what yaml-cpp reports as an undefined anchor.
  require_error(yaml({"a: 1", "questions: *x"}), 2, 12,
                "YAML syntax: the referenced anchor is not defined");
}

TEST_CASE("an explicit tag is refused") {
  require_error("title: !!str x\n" + lesson_q1, 1, 8,
                "tags like 'tag:yaml.org,2002:str' are not allowed");
}

TEST_CASE("a key that is not a plain word is refused") {
  require_error(yaml({"? [1]", ": 2"}), 1, 3,
                "a key must be a plain word, not a list, map or empty value");
}

TEST_CASE("a second document is refused where it starts") {
  require_error(lesson_q1 + yaml({"---", "questions: []"}), 10, 1,
                "expected one YAML document, but more follows here");
}

TEST_CASE("a YAML syntax error has a place") {
  require_error(yaml({"questions: ["}), 2, 1, "YAML syntax: end of sequence flow not found");
  require_error(yaml({"title: x", "]junk"}), 2, 1, "YAML syntax: illegal flow end");
}

TEST_CASE("nesting deeper than 64 levels is refused") {
  // The root map is level 1, so the 64th '[' (column 12 + 63) is one too many.
  require_error("questions: " + std::string(70, '[') + std::string(70, ']') + "\n", 1, 75,
                "nested deeper than 64 levels");
}

TEST_CASE("a file over 1 MiB is refused before parsing") {
  const Error e = error_of(std::string(1 << 20, '#') + "\n");
  CHECK(e.line() == 0);
  CHECK(e.column() == 0);
  CHECK(e.message() == "file is 1048577 bytes; the limit is 1048576");
}

// ---------------------------------------------------------------------------
// The rubric as a whole.

TEST_CASE("an empty file is refused") {
  require_error("", 1, 1, "the file is empty; expected a YAML document");
  require_error("# nothing but a comment\n", 1, 1, "the file is empty; expected a YAML document");
}

TEST_CASE("a root that is not a map is refused") {
  require_error(yaml({"- task: one-token"}), 1, 1, "a rubric is a map with 'questions:'; got a list");
  require_error(yaml({"questions"}), 1, 1, "a rubric is a map with 'questions:'; got 'questions'");
  require_error(yaml({"~"}), 1, 1, "a rubric is a map with 'questions:'; got nothing");
}

TEST_CASE("a rubric without questions is refused") {
  require_error(yaml({"title: x"}), 1, 1, "missing 'questions:'; a rubric needs at least one question");
}

TEST_CASE("questions that are not a list are refused") {
  require_error(yaml({"questions: 3"}), 1, 12, "questions: expected a list of one or more questions; got '3'");
  CHECK(error_of(yaml({"questions:"})).message() ==
        "questions: expected a list of one or more questions; got nothing");
}

TEST_CASE("an empty value is reported at its key, not at the next line",) {
  // Today yaml-cpp places an empty block value at the next token: the
  // following key (5:5 here), or past the end of the file (2:1, 12:1), where
  // there is no source line to show.
  SECTION("at the end of the file") {
    require_error(yaml({"questions:"}), 1, 1, "questions: expected a list of one or more questions; got nothing");
  }
  SECTION("before another key") {
    require_error(yaml({"questions:", "  - task: one-token", "    tokens: [bus, is, late]", "    query_token:",
                        "    inputs:", "      query: [1, 0]"}),
                  4, 5, "q1.query_token: expected a word, a position from 1, or random; got nothing");
  }
  SECTION("nested, at the end of the file") {
    require_error(lesson_q1 + yaml({"    marking:", "      scores:"}), 11, 7,
                  "q1.marking.scores: expected a map such as {marks: 2, decimals: 3}; got nothing");
  }
}

TEST_CASE("an empty list of questions is refused at the list") {
  require_error_starting(yaml({"questions: []"}), 1, 12, "questions: expected a list of one or more questions; got ");
}

TEST_CASE("an empty list of questions is described as empty",) {
  // Today: "questions: expected a list of one or more questions; got a list".
  require_error(yaml({"questions: []"}), 1, 12,
                "questions: expected a list of one or more questions; got an empty list");
}

TEST_CASE("a rubric name must be one word") {
  require_error("name: my rubric\n" + lesson_q1, 1, 7,
                "name: expected one word of 1 to 40 characters with no spaces; got 'my rubric'");
}

TEST_CASE("reveal_answers must be true or false") {
  require_error("reveal_answers: yes\n" + lesson_q1, 1, 17, "reveal_answers: expected true or false; got 'yes'");
}

TEST_CASE("a negative or non-integer seed is refused") {
  require_error("seed: -1\n" + lesson_q1, 1, 7,
                "seed: expected a whole number from 0 to 18446744073709551615; got '-1'");
  require_error("seed: 18446744073709551616\n" + lesson_q1, 1, 7,
                "seed: expected a whole number from 0 to 18446744073709551615; got '18446744073709551616'");
  require_error("seed: 1.5\n" + lesson_q1, 1, 7,
                "seed: expected a whole number from 0 to 18446744073709551615; got '1.5'");
  CHECK(load("seed: 18446744073709551615\n" + lesson_q1).seed == 18446744073709551615ULL);
}

namespace {

// A second question, with the id `id`, to follow lesson_q1 (lines 10-18).
std::string second_question(const std::string& id) {
  return yaml({
      "  - id: " + id,                               // 10
      "    task: one-token",                         // 11
      "    tokens: [bus, is, late]",                 // 12
      "    query_token: late",                       // 13
      "    inputs:",                                 // 14
      "      query: [1, 0]",                         // 15
      "      keys: [[2, 1], [0, 2], [1, 1]]",        // 16
      "      values: [[10, 0], [0, 10], [5, 5]]",    // 17
      "    ask: [scores]",                           // 18
  });
}

}  // namespace

TEST_CASE("two questions with the same id are refused at the second") {
  require_error(lesson_q1 + second_question("q1"), 10, 5, "q1: two questions have the id 'q1'");
}

TEST_CASE("two question ids a notebook would give the same answer names are refused at the second") {
  const std::string second = second_question("q_1");
  std::string first = lesson_q1;  // as q-1: a line more, so the second question starts on line 11
  first.replace(first.find("  - task:"), 9, "  - id: q-1\n    task:");
  require_error(first + second, 11, 5,
                "q_1: the ids 'q-1' and 'q_1' differ only in punctuation, and a notebook would name both questions' "
                "answers q_1_…; rename one");
}

TEST_CASE("a question that is not a map is refused") {
  require_error(yaml({"questions:", "  - one-token"}), 2, 5,
                "q1: expected a map describing the question; got 'one-token'");
}

TEST_CASE("a question id must be one word") {
  require_error(yaml({"questions:", "  - id: my question"}), 2, 9,
                "q1.id: expected one word of 1 to 40 characters with no spaces; got 'my question'");
}

// ---------------------------------------------------------------------------
// task, tokens, query_token.

TEST_CASE("a question without a task is refused") {
  require_error(yaml({"questions:", "  - tokens: [a]"}), 2, 5,
                "q1: missing 'task:'; expected 'one-token' or 'all-tokens'");
}

TEST_CASE("a bad task is refused with a suggestion") {
  require_error(yaml({"questions:", "  - task: one_token"}), 2, 11,
                "q1.task: expected 'one-token' or 'all-tokens'; got 'one_token' (did you mean 'one-token'?)");
  require_error(yaml({"questions:", "  - task: many"}), 2, 11,
                "q1.task: expected 'one-token' or 'all-tokens'; got 'many'");
}

TEST_CASE("a question without tokens is refused") {
  require_error(yaml({"questions:", "  - task: one-token"}), 2, 5,
                "q1: missing 'tokens:'; give a list of words or a word bank");
}

TEST_CASE("a token listed twice is refused at the second") {
  require_error(yaml({"questions:", "  - task: one-token", "    tokens: [bus, is, bus]"}), 3, 23,
                "q1.tokens: the word 'bus' is listed twice; tokens must be different words");
}

TEST_CASE("a word listed twice in a bank is refused") {
  require_error(yaml({"questions:", "  - task: one-token", "    tokens: {bank: [a, b, a], count: 2}"}), 3, 27,
                "q1.tokens.bank: the word 'a' is listed twice; tokens must be different words");
}

TEST_CASE("more than 16 tokens are refused") {
  require_error(yaml({"questions:", "  - task: one-token",
                      "    tokens: [a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q]"}),
                3, 13, "q1.tokens: at most 16 tokens");
}

TEST_CASE("a token with a space is refused") {
  require_error(yaml({"questions:", "  - task: one-token", "    tokens: [bus, 'is late']"}), 3, 19,
                "q1.tokens: expected one word of 1 to 40 characters with no spaces; got 'is late'");
}

TEST_CASE("a bank count larger than the bank is refused") {
  require_error(yaml({"questions:", "  - task: one-token", "    tokens:", "      bank: [a, b, c]",
                      "      count: 4"}),
                5, 14, "q1.tokens.count: expected a whole number from 1 to 3; got '4'");
}

TEST_CASE("a bank count above 16 is refused even with a larger bank") {
  require_error(yaml({"questions:", "  - task: one-token", "    tokens:",
                      "      bank: [a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r]",
                      "      count: 17"}),
                5, 14, "q1.tokens.count: expected a whole number from 1 to 16; got '17'");
}

TEST_CASE("a bank without a count is refused") {
  require_error(yaml({"questions:", "  - task: one-token", "    tokens:", "      bank: [a, b, c]"}), 4, 7,
                "q1.tokens: a word bank needs 'bank' (a list of words) and 'count'");
}

TEST_CASE("a query_token that is not one of the tokens is refused with a suggestion") {
  require_error(yaml({"questions:", "  - task: one-token", "    tokens: [bus, is, late]",
                      "    query_token: lat"}),
                4, 18,
                "q1.query_token: 'lat' is not one of the tokens ('bus', 'is' or 'late') (did you mean 'late'?)");
}

TEST_CASE("a query_token position out of range is refused") {
  const auto with = [](const char* position) {
    return yaml({"questions:", "  - task: one-token", "    tokens: [bus, is, late]"}) +
           "    query_token: " + position + "\n";
  };
  require_error(with("4"), 4, 18, "q1.query_token: expected a whole number from 1 to 3; got '4'");
  require_error(with("0"), 4, 18, "q1.query_token: expected a whole number from 1 to 3; got '0'");
}

TEST_CASE("a word query_token with a word bank is refused") {
  require_error(yaml({"questions:", "  - task: one-token", "    tokens: {bank: [a, b, c], count: 2}",
                      "    query_token: a"}),
                4, 18,
                "q1.query_token: tokens come from a word bank, so give a position or random, not a word");
}

TEST_CASE("a query_token on an all-tokens task is refused") {
  require_error(yaml({"questions:", "  - task: all-tokens", "    tokens: [bus, is, late]",
                      "    query_token: late"}),
                4, 18,
                "q1.query_token: only one-token tasks have a query token; every token asks in an "
                "all-tokens task");
}

TEST_CASE("a one-token task without a query_token is refused") {
  require_error(yaml({"questions:", "  - task: one-token", "    tokens: [bus, is, late]"}), 2, 5,
                "q1: a one-token task needs 'query_token:' (a word, a position from 1, or random)");
}

TEST_CASE("an empty query_token is refused") {
  // Its place is checked by "an empty value is reported at its key ...".
  CHECK(error_of(yaml({"questions:", "  - task: one-token", "    tokens: [bus, is, late]", "    query_token:"}))
            .message() == "q1.query_token: expected a word, a position from 1, or random; got nothing");
  require_error(yaml({"questions:", "  - task: one-token", "    tokens: [bus, is, late]", "    query_token: [1]"}),
                4, 18, "q1.query_token: expected a word, a position from 1, or random; got a list");
}

// ---------------------------------------------------------------------------
// inputs and dimensions.

TEST_CASE("a question without inputs is refused") {
  require_error(yaml({"questions:", "  - task: one-token", "    tokens: [bus, is, late]",
                      "    query_token: late", "    ask: [scores]"}),
                2, 5,
                "q1: needs 'inputs:', a map with query/queries, keys and values (or embeddings, w_q, "
                "w_k, w_v)");
}

TEST_CASE("inputs that are not a map are refused at the value") {
  require_error_starting(yaml({"questions:", "  - task: one-token", "    tokens: [bus, is, late]",
                               "    query_token: late", "    inputs: [1]"}),
                         5, 13, "q1");
}

TEST_CASE("inputs that are not a map are described as such",) {
  // Today: "q1: needs 'inputs:', a map with ..." although inputs is given.
  require_error(yaml({"questions:", "  - task: one-token", "    tokens: [bus, is, late]",
                      "    query_token: late", "    inputs: [1]"}),
                5, 13,
                "q1.inputs: expected a map with query/queries, keys and values (or embeddings, w_q, "
                "w_k, w_v); got a list");
}

TEST_CASE("queries given to a one-token task are refused") {
  require_error(yaml({"questions:", "  - task: one-token", "    tokens: [bus, is, late]",
                      "    query_token: late", "    inputs:", "      queries: [[1, 0]]", "      query: [1, 0]"}),
                6, 16,
                "q1.inputs.queries: a one-token task takes 'query' (the asking token's vector), not 'queries'");
}

TEST_CASE("a query given to an all-tokens task is refused") {
  require_error(yaml({"questions:", "  - task: all-tokens", "    tokens: [bus, is, late]", "    inputs:",
                      "      query: [1, 0]"}),
                5, 14, "q1.inputs.query: an all-tokens task takes 'queries' (a row per token), not 'query'");
}

TEST_CASE("missing keys are refused at inputs") {
  require_error(yaml({"questions:", "  - task: one-token", "    tokens: [bus, is, late]",
                      "    query_token: late", "    inputs:", "      query: [1, 0]",
                      "      values: [[10, 0], [0, 10], [5, 5]]"}),
                6, 7, "q1.inputs: 'keys' is missing; a one-token task needs query, keys and values");
}

TEST_CASE("missing queries are refused at inputs") {
  require_error(yaml({"questions:", "  - task: all-tokens", "    tokens: [bus, is, late]", "    inputs:",
                      "      keys: [[2, 1], [0, 2], [1, 1]]", "      values: [[10, 0], [0, 10], [5, 5]]"}),
                5, 7, "q1.inputs: 'queries' is missing; an all-tokens task needs queries, keys and values");
}

TEST_CASE("a row of the wrong length is refused at the row") {
  require_error(yaml({"questions:", "  - task: one-token", "    tokens: [bus, is, late]",
                      "    query_token: late", "    inputs:", "      query: [1, 0]",
                      "      keys: [[2, 1], [0], [1, 1]]"}),
                7, 22,
                "q1.inputs.keys: row 2 has 1 number but row 1 has 2; every row needs the same length");
}

TEST_CASE("a row that is not a list is refused") {
  require_error(yaml({"questions:", "  - task: one-token", "    tokens: [bus, is, late]",
                      "    query_token: late", "    inputs:", "      query: [1, 0]",
                      "      keys: [[2, 1], 3, [1, 1]]"}),
                7, 22, "q1.inputs.keys: row 2 must be a list of numbers; got '3'");
}

TEST_CASE("the wrong number of rows is refused") {
  require_error(yaml({"questions:", "  - task: one-token", "    tokens: [bus, is, late]",
                      "    query_token: late", "    inputs:", "      query: [1, 0]",
                      "      keys: [[2, 1], [0, 2]]", "      values: [[10, 0], [0, 10], [5, 5]]"}),
                7, 13, "q1.inputs.keys: expected 3 rows (one per token); got 2");
}

TEST_CASE("a table given as a one-token query is refused") {
  require_error(yaml({"questions:", "  - task: one-token", "    tokens: [bus, is, late]",
                      "    query_token: late", "    inputs:", "      query: [[1, 0], [0, 1]]",
                      "      keys: [[2, 1], [0, 2], [1, 1]]", "      values: [[10, 0], [0, 10], [5, 5]]"}),
                6, 14, "q1.inputs.query: expected one vector (a list of numbers), not a table");
}

TEST_CASE("inputs that disagree on d_k are refused") {
  // d_k comes from the query, then the keys must match it.
  require_error(yaml({"questions:", "  - task: one-token", "    tokens: [bus, is, late]",
                      "    query_token: late", "    inputs:", "      query: [1, 0]",
                      "      keys: [[2, 1, 0], [0, 2, 0], [1, 1, 0]]",
                      "      values: [[10, 0], [0, 10], [5, 5]]"}),
                7, 13, "q1.inputs.keys: rows have 3 numbers; expected d_k = 2");
  // A given d_k must match the inputs.
  require_error(yaml({"questions:", "  - task: one-token", "    tokens: [bus, is, late]",
                      "    query_token: late", "    d_k: 3", "    inputs:", "      query: [1, 0]",
                      "      keys: [[2, 1], [0, 2], [1, 1]]", "      values: [[10, 0], [0, 10], [5, 5]]"}),
                7, 14, "q1.inputs.query: rows have 2 numbers; expected d_k = 3");
}

TEST_CASE("a given d_v must match the values") {
  require_error(lesson_q1_head + "    d_v: 3\n", 8, 15, "q1.inputs.values: rows have 2 numbers; expected d_v = 3");
}

TEST_CASE("d_k is needed when every input with it is random") {
  require_error(yaml({"questions:", "  - task: one-token", "    tokens: [bus, is, late]",
                      "    query_token: late", "    d_v: 2", "    inputs:", "      query: {min: 0, max: 2}",
                      "      keys: {min: 0, max: 2}", "      values: {min: 0, max: 2}"}),
                2, 5, "q1: needs 'd_k:', since every input that has it is random");
}

TEST_CASE("d_v is needed when the values are random") {
  require_error(yaml({"questions:", "  - task: one-token", "    tokens: [bus, is, late]",
                      "    query_token: late", "    d_k: 2", "    inputs:", "      query: {min: 0, max: 2}",
                      "      keys: {min: 0, max: 2}", "      values: {min: 0, max: 2}"}),
                2, 5, "q1: needs 'd_v:', since every input that has it is random");
}

TEST_CASE("dimensions outside 1 to 16 are refused") {
  require_error(lesson_q1_head + "    d_k: 0\n", 9, 10, "q1.d_k: expected a whole number from 1 to 16; got '0'");
  require_error(lesson_q1_head + "    d_v: 17\n", 9, 10, "q1.d_v: expected a whole number from 1 to 16; got '17'");
  require_error(yaml({"questions:", "  - task: one-token", "    tokens: [a]", "    query_token: a",
                      "    inputs:", "      query: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]",
                      "      keys: [[1]]", "      values: [[1]]"}),
                6, 14, "q1.inputs.query: at most 16 numbers per row");
}

namespace {
// A grid input: lines 1-7, then the query grid on line 8.
std::string with_query_grid(const std::string& grid) {
  return yaml({"questions:", "  - task: one-token", "    tokens: [bus, is, late]", "    query_token: late",
               "    d_k: 2", "    d_v: 2", "    inputs:"}) +
         "      query: " + grid + "\n";
}
}  // namespace

TEST_CASE("a grid with max below min is refused at max") {
  require_error(with_query_grid("{min: 2, max: 1}"), 8, 28, "q1.inputs.query.max: must not be below min");
}

TEST_CASE("a grid whose step does not divide max - min is refused at max") {
  require_error(with_query_grid("{min: 0, max: 1, step: 0.3}"), 8, 28,
                "q1.inputs.query: max must be min plus a whole number of steps");
  // The default step is 1.
  require_error(with_query_grid("{min: 0, max: 0.5}"), 8, 28,
                "q1.inputs.query: max must be min plus a whole number of steps");
}

TEST_CASE("a grid step of 0 or below is refused at the step") {
  require_error(with_query_grid("{min: 0, max: 1, step: 0}"), 8, 37, "q1.inputs.query.step: must be above 0");
  require_error(with_query_grid("{min: 0, max: 1, step: -1}"), 8, 37, "q1.inputs.query.step: must be above 0");
}

TEST_CASE("a grid without min or max is refused") {
  require_error(with_query_grid("{max: 1}"), 8, 14,
                "q1.inputs.query: a random grid needs 'min' and 'max' (and optionally 'step', default 1)");
}

TEST_CASE("grid bounds must be plain decimals with at most 6 decimals") {
  const std::string rule = "expected a plain decimal number with at most 6 decimals, like 2 or -0.5; got ";
  require_error(with_query_grid("{min: 1e2, max: 1}"), 8, 20, "q1.inputs.query.min: " + rule + "'1e2'");
  require_error(with_query_grid("{min: 0, max: 0.0000001, step: 0.0000001}"), 8, 28,
                "q1.inputs.query.max: " + rule + "'0.0000001'");
  require_error(with_query_grid("{min: 0, max: 1, step: 0.1234567}"), 8, 37,
                "q1.inputs.query.step: " + rule + "'0.1234567'");
  require_error(with_query_grid("{min: abc, max: 1}"), 8, 20, "q1.inputs.query.min: " + rule + "'abc'");
}

TEST_CASE("a grid of more than a million points is refused") {
  require_error(with_query_grid("{min: 0, max: 200000, step: 0.1}"), 8, 14,
                "q1.inputs.query: the grid has more than 1000000 points; use a larger step");
}

TEST_CASE("a cell that is not a finite decimal number is refused") {
  const auto with = [](const char* cell) {
    return yaml({"questions:", "  - task: one-token", "    tokens: [bus, is, late]", "    query_token: late",
                 "    inputs:"}) +
           "      query: [1, " + cell + "]\n";
  };
  for (const char* cell : {"abc", ".nan", ".inf", "-.inf", "0x10", "nan", "inf", "1e400", "1_000", "true"}) {
    SECTION(cell) {
      require_error(with(cell), 6, 18, std::string("q1.inputs.query: expected a number; got '") + cell + "'");
    }
  }
  require_error(with("[2]"), 6, 18, "q1.inputs.query: expected a number; got a list");
}

TEST_CASE("a doubled sign in a cell is refused",) {
  // Today '+-1' is accepted as -1: the leading '+' is skipped, then
  // from_chars reads "-1".
  require_error(yaml({"questions:", "  - task: one-token", "    tokens: [bus, is, late]",
                      "    query_token: late", "    inputs:", "      query: [1, +-1]",
                      "      keys: [[2, 1], [0, 2], [1, 1]]", "      values: [[10, 0], [0, 10], [5, 5]]",
                      "    ask: [scores]"}),
                6, 18, "q1.inputs.query: expected a number; got '+-1'");
}

TEST_CASE("an empty input list is refused") {
  require_error(yaml({"questions:", "  - task: one-token", "    tokens: [a]", "    query_token: a",
                      "    inputs:", "      query: []"}),
                6, 14,
                "q1.inputs.query: expected numbers (a list, or a list of rows) or a random grid {min, "
                "max, step}; got an empty list");
}

// ---------------------------------------------------------------------------
// Projections.

TEST_CASE("projections missing w_v are refused at inputs") {
  require_error(yaml({"questions:", "  - task: one-token", "    tokens: [bus, is, late]",
                      "    query_token: late", "    inputs:", "      embeddings: [[1, 0], [0, 1], [1, 1]]",
                      "      w_q: [[1, 0], [0, 1]]", "      w_k: [[1, 0], [0, 1]]"}),
                6, 7, "q1.inputs: projections need embeddings, w_q, w_k and w_v; 'w_v' is missing");
}

TEST_CASE("projections together with keys are refused at keys") {
  require_error(yaml({"questions:", "  - task: one-token", "    tokens: [bus, is, late]",
                      "    query_token: late", "    inputs:", "      embeddings: [[1, 0], [0, 1], [1, 1]]",
                      "      w_q: [[1, 0], [0, 1]]", "      w_k: [[1, 0], [0, 1]]",
                      "      w_v: [[1, 0], [0, 1]]", "      keys: [[2, 1], [0, 2], [1, 1]]"}),
                10, 13,
                "q1.inputs.keys: with projections the student computes keys from embeddings and w_q, "
                "w_k, w_v; remove it");
}

TEST_CASE("a projection table with the wrong height is refused") {
  require_error(yaml({"questions:", "  - task: one-token", "    tokens: [bus, is, late]",
                      "    query_token: late", "    inputs:", "      embeddings: [[1, 0], [0, 1], [1, 1]]",
                      "      w_q: [[1, 0], [0, 1], [1, 1]]", "      w_k: [[1, 0], [0, 1]]",
                      "      w_v: [[1, 0], [0, 1]]"}),
                7, 12, "q1.inputs.w_q: expected 2 rows (one per embedding dimension (d_model)); got 3");
}

TEST_CASE("projections with every table random need d_model") {
  require_error(yaml({"questions:", "  - task: one-token", "    tokens: [bus, is, late]",
                      "    query_token: late", "    d_k: 2", "    d_v: 2", "    inputs:",
                      "      embeddings: {min: 0, max: 2}", "      w_q: {min: 0, max: 2}",
                      "      w_k: {min: 0, max: 2}", "      w_v: {min: 0, max: 2}"}),
                2, 5, "q1: needs 'd_model:', since the embeddings and tables are all random");
}

TEST_CASE("a d_model inferred from a table's height is at most 16",) {
  // Today accepted with d_model = 17: the 16 limit is checked only for a
  // width read while the dimension is still unknown.
  std::string rows = "[[1]";
  for (int i = 1; i < 17; ++i) rows += ", [1]";
  rows += "]";
  require_error(yaml({"questions:", "  - task: one-token", "    tokens: [a, b, c]", "    query_token: 1",
                      "    d_k: 1", "    d_v: 1", "    inputs:", "      embeddings: {min: 0, max: 1}"}) +
                    "      w_q: " + rows + "\n      w_k: " + rows + "\n      w_v: " + rows +
                    "\n    ask: [scores]\n",
                9, 12, "q1.inputs.w_q: at most 16 rows");
}

TEST_CASE("a d_model inferred from the embeddings' width is at most 16",) {
  // Today accepted with d_model = 17.
  require_error(yaml({"questions:", "  - task: one-token", "    tokens: [a]", "    query_token: a",
                      "    d_k: 1", "    d_v: 1", "    inputs:",
                      "      embeddings: [[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]]",
                      "      w_q: {min: 0, max: 1}", "      w_k: {min: 0, max: 1}", "      w_v: {min: 0, max: 1}",
                      "    ask: [scores]"}),
                8, 19, "q1.inputs.embeddings: at most 16 numbers per row");
}

TEST_CASE("d_model without projections is refused",) {
  // Today accepted and silently ignored.
  require_error(yaml({"questions:", "  - task: one-token", "    tokens: [bus, is, late]",
                      "    query_token: late", "    d_model: 3", "    inputs:", "      query: [1, 0]",
                      "      keys: [[2, 1], [0, 2], [1, 1]]", "      values: [[10, 0], [0, 10], [5, 5]]",
                      "    ask: [scores]"}),
                5, 14,
                "q1.d_model: only questions with projections (embeddings, w_q, w_k, w_v) have d_model; "
                "remove it");
}

// ---------------------------------------------------------------------------
// scale and mask.

TEST_CASE("a bad scale is refused with a suggestion") {
  require_error(lesson_q1 + "    scale: sqrt(dk)\n", 10, 12,
                "q1.scale: expected 'none', 'sqrt-dk' or a number above 0; got 'sqrt(dk)' (did you mean 'sqrt-dk'?)");
  require_error(lesson_q1 + "    scale: [2]\n", 10, 12,
                "q1.scale: expected 'none', 'sqrt-dk' or a number above 0; got a list");
  require_error(lesson_q1 + "    scale: 2abc\n", 10, 12, "q1.scale: expected a number; got '2abc'");
}

TEST_CASE("a scale of 0 or below is refused") {
  require_error(lesson_q1 + "    scale: 0\n", 10, 12,
                "q1.scale: expected 'none', 'sqrt-dk' or a number above 0; got 0");
  require_error(lesson_q1 + "    scale: -2\n", 10, 12,
                "q1.scale: expected 'none', 'sqrt-dk' or a number above 0; got -2");
}

TEST_CASE("a bad mask is refused with a suggestion") {
  require_error(lesson_q1 + "    mask: casual\n", 10, 11,
                "q1.mask: expected 'none' or 'causal'; got 'casual' (did you mean 'causal'?)");
}

// ---------------------------------------------------------------------------
// ask.

TEST_CASE("a question without ask is refused") {
  require_error(lesson_q1_head, 2, 5,
                "q1: missing 'ask:', the list of parts the student answers (e.g. [scores, weights, output])");
}

TEST_CASE("an empty ask is refused at the list") {
  require_error_starting(lesson_q1_head + "    ask: []\n", 9, 10,
                         "q1.ask: expected a list of parts, such as [scores, weights, output]; got ");
  require_error(lesson_q1_head + "    ask: scores\n", 9, 10,
                "q1.ask: expected a list of parts, such as [scores, weights, output]; got 'scores'");
}

TEST_CASE("an empty ask is described as empty",) {
  // Today: "...; got a list".
  require_error(lesson_q1_head + "    ask: []\n", 9, 10,
                "q1.ask: expected a list of parts, such as [scores, weights, output]; got an empty list");
}

TEST_CASE("an unknown part is refused with a suggestion") {
  require_error(lesson_q1_head + "    ask: [scores, weight]\n", 9, 19,
                "q1.ask: unknown part 'weight' (did you mean 'weights'?); parts are 'query', 'queries', "
                "'keys', 'values', 'scores', 'weights', 'output' or 'most-attended'");
}

TEST_CASE("a part asked twice is refused at the second") {
  require_error(lesson_q1_head + "    ask: [scores, weights, scores]\n", 9, 28, "q1.ask: 'scores' is asked twice");
  // The two spellings of most-attended are one part.
  require_error(lesson_q1_head + "    ask: [scores, most_attended, most-attended]\n", 9, 34,
                "q1.ask: 'most-attended' is asked twice");
}

TEST_CASE("keys, values and query are asked only with projections") {
  require_error(lesson_q1_head + "    ask: [keys, scores]\n", 9, 11,
                "q1.ask: 'keys' can be asked only with projections (inputs embeddings, w_q, w_k, w_v); here "
                "it is given");
  require_error(lesson_q1_head + "    ask: [query]\n", 9, 11,
                "q1.ask: 'query' can be asked only with projections (inputs embeddings, w_q, w_k, w_v); here "
                "it is given");
}

TEST_CASE("query and queries go with their task") {
  const std::string projected = yaml({
      "    inputs:",                           // 4 (one-token: 5)
      "      embeddings: [[1, 0], [0, 1]]",
      "      w_q: [[1, 0], [0, 1]]",
      "      w_k: [[1, 0], [0, 1]]",
      "      w_v: [[1, 0], [0, 1]]",
  });
  require_error(yaml({"questions:", "  - task: all-tokens", "    tokens: [a, b]"}) + projected +
                    "    ask: [query]\n",
                9, 11, "q1.ask: an all-tokens task asks 'queries', not 'query'");
  require_error(yaml({"questions:", "  - task: one-token", "    tokens: [a, b]", "    query_token: 1"}) +
                    projected + "    ask: [queries]\n",
                10, 11, "q1.ask: a one-token task asks 'query', not 'queries'");
}

// ---------------------------------------------------------------------------
// marking.

TEST_CASE("marking for a part that is not asked is refused") {
  require_error(lesson_q1_head + yaml({"    ask: [scores, weights]", "    marking:", "      output: {marks: 2}"}),
                11, 7, "q1.marking: 'output' is not asked; add it to 'ask:' or remove its marking");
}

TEST_CASE("marking for an unknown part is refused with a suggestion") {
  require_error(lesson_q1 + yaml({"    marking:", "      score: {marks: 2}"}), 11, 7,
                "q1.marking: unknown part 'score' (did you mean 'scores'?); parts are 'query', 'queries', "
                "'keys', 'values', 'scores', 'weights', 'output' or 'most-attended'");
}

TEST_CASE("marking that is not a map is refused") {
  require_error(lesson_q1 + yaml({"    marking: [scores]"}), 10, 14,
                "q1.marking: expected a map from part to its marking; got a list");
  require_error(lesson_q1 + yaml({"    marking:", "      scores: 2"}), 11, 15,
                "q1.marking.scores: expected a map such as {marks: 2, decimals: 3}; got '2'");
}

TEST_CASE("most-attended marked under both spellings is refused",) {
  // Today accepted: the second entry silently replaces the first.
  require_error(lesson_q1_head + yaml({"    ask: [scores, most-attended]", "    marking:",
                                       "      most-attended: {marks: 1}", "      most_attended: {marks: 2}"}),
                12, 7, "q1.marking: 'most_attended' is marked twice");
}

TEST_CASE("negative or huge marks are refused") {
  require_error(lesson_q1 + yaml({"    marking:", "      scores: {marks: -1}"}), 11, 23,
                "q1.marking.scores.marks: expected a number from 0 to 1000; got -1");
  require_error(lesson_q1 + yaml({"    marking:", "      scores: {marks: 1001}"}), 11, 23,
                "q1.marking.scores.marks: expected a number from 0 to 1000; got 1001");
  require_error(lesson_q1 + yaml({"    marking:", "      scores: {marks: .nan}"}), 11, 23,
                "q1.marking.scores.marks: expected a number; got '.nan'");
}

TEST_CASE("marking decimals are 0 to 10") {
  require_error(lesson_q1 + yaml({"    marking:", "      weights: {decimals: 11}"}), 11, 27,
                "q1.marking.weights.decimals: expected a whole number from 0 to 10; got '11'");
}

TEST_CASE("a bad credit is refused") {
  require_error(lesson_q1 + yaml({"    marking:", "      scores: {credit: partial}"}), 11, 24,
                "q1.marking.scores.credit: expected 'per-cell' or 'all-or-nothing'; got 'partial'");
}

TEST_CASE("follow_through must be true or false") {
  require_error(lesson_q1 + yaml({"    marking:", "      scores: {follow_through: yes}"}), 11, 32,
                "q1.marking.scores.follow_through: expected true or false; got 'yes'");
  require_error(lesson_q1 + yaml({"    marking:", "      scores: {follow_through: 'true'}"}), 11, 32,
                "q1.marking.scores.follow_through: expected true or false; got 'true'");
}

TEST_CASE("follow_through_credit must be a fraction from 0 to 1") {
  require_error(lesson_q1 + yaml({"    marking:", "      scores: {follow_through_credit: 1.5}"}), 11, 39,
                "q1.marking.scores.follow_through_credit: expected a fraction from 0 to 1; got 1.5");
  require_error(lesson_q1 + yaml({"    marking:", "      scores: {follow_through_credit: -0.5}"}), 11, 39,
                "q1.marking.scores.follow_through_credit: expected a fraction from 0 to 1; got -0.5");
}

TEST_CASE("sigfigs or decimals mixed with another tolerance key are refused at the map") {
  require_error(lesson_q1 + yaml({"    marking:", "      weights: {tolerance: {sigfigs: 3, absolute: 0.01}}"}),
                11, 28,
                "q1.marking.weights.tolerance: sigfigs and decimals each stand alone; do not mix them with "
                "other keys");
  require_error(lesson_q1 + yaml({"    marking:", "      weights: {tolerance: {decimals: 2, sigfigs: 3}}"}),
                11, 28,
                "q1.marking.weights.tolerance: sigfigs and decimals each stand alone; do not mix them with "
                "other keys");
}

TEST_CASE("a negative tolerance is refused") {
  require_error(lesson_q1 + yaml({"    marking:", "      weights: {tolerance: {absolute: -0.01}}"}), 11, 39,
                "q1.marking.weights.tolerance.absolute: must not be negative; got -0.01");
  require_error(lesson_q1 + yaml({"    marking:", "      weights: {tolerance: {relative: -0.01}}"}), 11, 39,
                "q1.marking.weights.tolerance.relative: must not be negative; got -0.01");
}

TEST_CASE("sigfigs 0 is refused") {
  require_error(lesson_q1 + yaml({"    marking:", "      weights: {tolerance: {sigfigs: 0}}"}), 11, 38,
                "q1.marking.weights.tolerance.sigfigs: expected a whole number from 1 to 15; got '0'");
}

TEST_CASE("an empty or non-map tolerance is refused") {
  require_error(lesson_q1 + yaml({"    marking:", "      weights: {tolerance: {}}"}), 11, 28,
                "q1.marking.weights.tolerance: give absolute, relative, sigfigs or decimals");
  require_error(lesson_q1 + yaml({"    marking:", "      weights: {tolerance: 0.01}"}), 11, 28,
                "q1.marking.weights.tolerance: expected a map such as {absolute: 0.001}, {relative: 0.01}, "
                "{sigfigs: 3} or {decimals: 2}; got '0.01'");
}

// ---------------------------------------------------------------------------
// constraints.

TEST_CASE("max_draws 0 is refused") {
  require_error(lesson_q1 + "    constraints: {max_draws: 0}\n", 10, 30,
                "q1.constraints.max_draws: expected a whole number from 1 to 100000; got '0'");
}

TEST_CASE("max_abs_score must be above 0") {
  require_error(lesson_q1 + "    constraints: {max_abs_score: 0}\n", 10, 34,
                "q1.constraints.max_abs_score: must be above 0");
}

TEST_CASE("constraint flags must be true or false") {
  require_error(lesson_q1 + "    constraints: {distinct_weights: 1}\n", 10, 37,
                "q1.constraints.distinct_weights: expected true or false; got '1'");
}

// ---------------------------------------------------------------------------
// The report a teacher sees.

TEST_CASE("an error report shows the place, the line and a caret under the column") {
  const Error e = error_of(yaml({"questions:", "  - task: one-token", "    tokns: [a]"}));
  CHECK(e.report() ==
        "t.yaml:3:5: q1: unknown key 'tokns' (did you mean 'tokens'?); allowed here: 'id', 'title', "
        "'prompt', 'task', 'tokens', 'query_token', 'd_k', 'd_v', 'd_model', 'inputs', 'scale', "
        "'mask', 'ask', 'marking' or 'constraints'\n"
        "    tokns: [a]\n"
        "    ^");
  const Error value = error_of(lesson_q1 + "    mask: casual\n");
  CHECK(value.report() ==
        "t.yaml:10:11: q1.mask: expected 'none' or 'causal'; got 'casual' (did you mean 'causal'?)\n"
        "    mask: casual\n"
        "          ^");
}

// ---------------------------------------------------------------------------
// What loads, and what it loads to.

TEST_CASE("every shipped rubric loads") {
  namespace fs = std::filesystem;
  int loaded = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(fs::path(ATTNMARK_SOURCE_DIR) / "rubrics")) {
    if (entry.path().extension() != ".yaml") continue;
    INFO(entry.path().string());
    Rubric rubric;
    try {
      rubric = load_rubric_file(entry.path().string());
    } catch (const Error& e) {
      FAIL(e.report());
    }
    CHECK(rubric.name == entry.path().stem().string());
    CHECK_FALSE(rubric.title.empty());
    CHECK_FALSE(rubric.questions.empty());
    ++loaded;
  }
  CHECK(loaded >= 5);
}

TEST_CASE("a rubric file that cannot be read is an error naming it") {
  const std::string path = std::string(ATTNMARK_SOURCE_DIR) + "/rubrics/no-such-rubric.yaml";
  try {
    load_rubric_file(path);
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.file() == path);
    CHECK(e.line() == 0);
  }
}

TEST_CASE("lesson.yaml holds exactly the lesson's inputs and marking") {
  const Rubric r = load_rubric_file(std::string(ATTNMARK_SOURCE_DIR) + "/rubrics/lesson.yaml");
  CHECK(r.name == "lesson");
  CHECK(r.title == "How attention works in a transformer");
  REQUIRE(r.seed);
  CHECK(*r.seed == 2026);
  CHECK_FALSE(r.reveal_in_feedback);
  REQUIRE(r.questions.size() == 3);
  const std::vector<std::string> words = {"bus", "is", "late"};
  const Matrix keys = {{2, 1}, {0, 2}, {1, 1}};
  const Matrix values = {{10, 0}, {0, 10}, {5, 5}};

  const QuestionSpec& q1 = r.questions[0];
  CHECK(q1.id == "q1");
  CHECK(q1.title == "the output of attention for \"late\"");
  CHECK(q1.prompt ==
        "The query of late is scored against every key, softmax turns the scores into weights, "
        "and the output is the weighted mix of the values.");
  CHECK(q1.task == Task::one_token);
  CHECK(q1.tokens.words == words);
  CHECK_FALSE(q1.tokens.from_bank);
  CHECK(q1.query_token.kind == QueryTokenSpec::Kind::word);
  CHECK(q1.query_token.word == "late");
  CHECK(q1.d_k == 2);
  CHECK(q1.d_v == 2);
  CHECK_FALSE(q1.projections);
  CHECK_FALSE(q1.query.random);
  CHECK(q1.query.fixed == Matrix{{1, 0}});
  CHECK(q1.keys.fixed == keys);
  CHECK(q1.values.fixed == values);
  CHECK_FALSE(q1.queries.present);
  CHECK(q1.scale.kind == ScaleSpec::Kind::none);
  CHECK(q1.mask == Mask::none);
  CHECK(q1.ask == std::vector<Part>{Part::scores, Part::weights, Part::output});
  REQUIRE(q1.marking.size() == 3);
  CHECK(q1.marking.at(Part::scores).marks == 1);
  CHECK_FALSE(q1.marking.at(Part::scores).decimals);
  CHECK(q1.marking.at(Part::weights).marks == 2);
  CHECK(q1.marking.at(Part::weights).decimals == 3);
  CHECK(q1.marking.at(Part::output).marks == 2);
  CHECK(q1.marking.at(Part::output).decimals == 2);
  CHECK(q1.decimals(Part::scores) == 0);
  CHECK(q1.fixed());
  CHECK(q1.place.line == 7);
  CHECK(q1.place.column == 5);

  const QuestionSpec& q2 = r.questions[1];
  CHECK(q2.id == "q2");
  CHECK(q2.task == Task::all_tokens);
  CHECK(q2.tokens.words == words);
  CHECK(q2.queries.fixed == Matrix{{0, 1}, {1, 1}, {1, 0}});
  CHECK(q2.keys.fixed == keys);
  CHECK(q2.values.fixed == values);
  CHECK_FALSE(q2.query.present);
  CHECK(q2.marking.at(Part::scores).marks == 2);
  CHECK(q2.marking.at(Part::weights).marks == 3);
  CHECK(q2.marking.at(Part::weights).decimals == 3);
  CHECK(q2.marking.at(Part::output).marks == 3);
  CHECK(q2.marking.at(Part::output).decimals == 2);

  const QuestionSpec& q3 = r.questions[2];
  CHECK(q3.id == "q3");
  CHECK(q3.prompt == "Which token gets the most weight now?");
  CHECK(q3.query.fixed == Matrix{{0, 1}});
  CHECK(q3.query_token.word == "late");
  CHECK(q3.ask == std::vector<Part>{Part::scores, Part::weights, Part::most_attended});
  CHECK(q3.marking.at(Part::most_attended).marks == 1);
  CHECK(q3.marking.at(Part::weights).marks == 1);
  CHECK_FALSE(q3.marking.at(Part::weights).decimals);
  CHECK(q3.decimals(Part::weights) == 3);
}

TEST_CASE("defaults: names, ids, marking, constraints and decimals") {
  const Rubric r = load_rubric(lesson_q1, "some/dir/my-rubric.yaml");
  CHECK(r.name == "my-rubric");
  CHECK(r.file == "some/dir/my-rubric.yaml");
  CHECK(r.title.empty());
  CHECK_FALSE(r.seed);
  CHECK_FALSE(r.reveal_in_feedback);
  const QuestionSpec& q = r.questions.at(0);
  CHECK(q.id == "q1");
  CHECK(q.scale.kind == ScaleSpec::Kind::none);
  CHECK(q.mask == Mask::none);
  for (Part p : {Part::scores, Part::weights, Part::output}) {
    const PartMarking& m = q.marking.at(p);
    CHECK(m.marks == 1);
    CHECK_FALSE(m.decimals);
    CHECK_FALSE(m.tolerance);
    CHECK(m.per_cell);
    CHECK(m.follow_through);
    CHECK(m.follow_through_credit == 1.0);
  }
  CHECK_FALSE(q.constraints.max_abs_score);
  CHECK_FALSE(q.constraints.unique_top_weight);
  CHECK_FALSE(q.constraints.distinct_weights);
  CHECK(q.constraints.max_draws == 1000);
  // Whole-number inputs, no scale: scores are whole numbers.
  CHECK(q.integral_scores());
  CHECK(q.decimals(Part::scores) == 0);
  CHECK(q.decimals(Part::weights) == 3);
  CHECK(q.decimals(Part::output) == 2);

  // A scale makes scores fractional; a scale of 1 does not.
  CHECK(load(lesson_q1 + "    scale: sqrt-dk\n").questions[0].decimals(Part::scores) == 2);
  CHECK(load(lesson_q1 + "    scale: 2\n").questions[0].decimals(Part::scores) == 2);
  CHECK(load(lesson_q1 + "    scale: 1\n").questions[0].decimals(Part::scores) == 0);
  CHECK(load(lesson_q1 + "    scale: none\n").questions[0].decimals(Part::scores) == 0);
  // A fractional input makes scores fractional; fractional values do not.
  const std::string half_query = yaml({"questions:", "  - task: one-token", "    tokens: [bus, is, late]",
                                       "    query_token: late", "    inputs:", "      query: [0.5, 0]",
                                       "      keys: [[2, 1], [0, 2], [1, 1]]",
                                       "      values: [[1.5, 0], [0, 10], [5, 5]]", "    ask: [scores]"});
  CHECK(load(half_query).questions[0].decimals(Part::scores) == 2);
  const std::string half_values = yaml({"questions:", "  - task: one-token", "    tokens: [bus, is, late]",
                                        "    query_token: late", "    inputs:", "      query: [1, 0]",
                                        "      keys: [[2, 1], [0, 2], [1, 1]]",
                                        "      values: [[1.5, 0], [0, 10], [5, 5]]", "    ask: [scores]"});
  CHECK(load(half_values).questions[0].decimals(Part::scores) == 0);
  // Random grids: whole-number grids give whole scores, 0.5 steps do not.
  CHECK(load(yaml({"questions:", "  - task: one-token", "    tokens: [a, b]", "    query_token: 1", "    d_k: 2",
                   "    d_v: 2", "    inputs:", "      query: {min: -2, max: 2}", "      keys: {min: 0, max: 4, step: 2}",
                   "      values: {min: 0, max: 1, step: 0.5}", "    ask: [scores]"}))
            .questions[0]
            .decimals(Part::scores) == 0);
  CHECK(load(yaml({"questions:", "  - task: one-token", "    tokens: [a, b]", "    query_token: 1", "    d_k: 2",
                   "    d_v: 2", "    inputs:", "      query: {min: -2, max: 2}", "      keys: {min: 0, max: 2, step: 0.5}",
                   "      values: {min: 0, max: 1}", "    ask: [scores]"}))
            .questions[0]
            .decimals(Part::scores) == 2);
  // The rubric's choice wins.
  CHECK(load(lesson_q1 + "    marking: {scores: {decimals: 1}}\n").questions[0].decimals(Part::scores) == 1);
}

TEST_CASE("marking options are read as written") {
  const Rubric r = load(lesson_q1 + yaml({
                                         "    marking:",
                                         "      scores: {marks: 0.5, credit: all-or-nothing, follow_through: false}",
                                         "      weights: {tolerance: {relative: 0.02, absolute: 0.001}, "
                                         "follow_through_credit: 0.5}",
                                         "      output: {decimals: 1, tolerance: {sigfigs: 3}}",
                                     }));
  const QuestionSpec& q = r.questions[0];
  const PartMarking& scores = q.marking.at(Part::scores);
  CHECK(scores.marks == 0.5);
  CHECK_FALSE(scores.per_cell);
  CHECK_FALSE(scores.follow_through);
  CHECK(scores.place.line == 11);
  const PartMarking& weights = q.marking.at(Part::weights);
  REQUIRE(weights.tolerance);
  CHECK(weights.tolerance->mode == Tolerance::Mode::relative);
  CHECK(weights.tolerance->rtol == 0.02);
  CHECK(weights.tolerance->atol == 0.001);
  CHECK(weights.follow_through_credit == 0.5);
  CHECK(weights.marks == 1);
  const PartMarking& output = q.marking.at(Part::output);
  CHECK(output.decimals == 1);
  REQUIRE(output.tolerance);
  CHECK(output.tolerance->mode == Tolerance::Mode::sigfigs);
  CHECK(output.tolerance->digits == 3);

  const auto tolerance_of = [](const std::string& written) {
    const Rubric one = load(lesson_q1 + "    marking: {weights: {tolerance: " + written + "}}\n");
    return *one.questions[0].marking.at(Part::weights).tolerance;
  };
  const Tolerance absolute = tolerance_of("{absolute: 0.01}");
  CHECK(absolute.mode == Tolerance::Mode::absolute);
  CHECK(absolute.atol == 0.01);
  CHECK(absolute.rtol == 0);
  const Tolerance relative = tolerance_of("{relative: 0.05}");
  CHECK(relative.mode == Tolerance::Mode::relative);
  CHECK(relative.rtol == 0.05);
  CHECK(relative.atol == 0);
  const Tolerance decimals = tolerance_of("{decimals: 0}");
  CHECK(decimals.mode == Tolerance::Mode::decimals);
  CHECK(decimals.digits == 0);
}

TEST_CASE("most-attended and most_attended name the same part") {
  const Rubric r = load(lesson_q1_head + yaml({"    ask: [scores, most_attended]", "    marking:",
                                               "      most-attended: {marks: 3}"}));
  const QuestionSpec& q = r.questions[0];
  CHECK(q.ask == std::vector<Part>{Part::scores, Part::most_attended});
  CHECK(q.marking.at(Part::most_attended).marks == 3);
  CHECK(std::string(part_name(Part::most_attended)) == "most_attended");
}

TEST_CASE("query_token forms: a word, a position from 1, random") {
  const auto with = [](const char* written) {
    return load(yaml({"questions:", "  - task: one-token", "    tokens: [bus, is, late]"}) +
                "    query_token: " + written + "\n" +
                yaml({"    inputs:", "      query: [1, 0]", "      keys: [[2, 1], [0, 2], [1, 1]]",
                      "      values: [[10, 0], [0, 10], [5, 5]]", "    ask: [scores]"}))
        .questions[0];
  };
  const QuestionSpec word = with("is");
  CHECK(word.query_token.kind == QueryTokenSpec::Kind::word);
  CHECK(word.query_token.word == "is");
  CHECK(word.fixed());
  const QuestionSpec position = with("3");
  CHECK(position.query_token.kind == QueryTokenSpec::Kind::position);
  CHECK(position.query_token.position == 3);
  CHECK(position.fixed());
  const QuestionSpec random = with("random");
  CHECK(random.query_token.kind == QueryTokenSpec::Kind::random);
  CHECK_FALSE(random.fixed());
}

TEST_CASE("a word bank, scale, mask and constraints are read") {
  const Rubric r = load(yaml({
      "questions:",
      "  - id: late",
      "    title: Scaled",
      "    task: all-tokens",
      "    tokens: {bank: [the, cat, sat, on], count: 3}",
      "    d_k: 4",
      "    d_v: 2",
      "    inputs:",
      "      queries: {min: -1, max: 1}",
      "      keys: {min: -1, max: 1}",
      "      values: {min: 0, max: 8, step: 2}",
      "    scale: sqrt-dk",
      "    mask: causal",
      "    ask: [scores, weights, output, most-attended]",
      "    constraints: {max_abs_score: 2.5, unique_top_weight: true, distinct_weights: true, max_draws: 50}",
  }));
  const QuestionSpec& q = r.questions[0];
  CHECK(q.id == "late");
  CHECK(q.title == "Scaled");
  CHECK(q.tokens.from_bank);
  CHECK(q.tokens.words == std::vector<std::string>{"the", "cat", "sat", "on"});
  CHECK(q.tokens.count == 3);
  CHECK(q.token_count() == 3);
  CHECK(q.scale.kind == ScaleSpec::Kind::sqrt_dk);
  CHECK(q.mask == Mask::causal);
  CHECK(q.constraints.max_abs_score == 2.5);
  CHECK(q.constraints.unique_top_weight);
  CHECK(q.constraints.distinct_weights);
  CHECK(q.constraints.max_draws == 50);
  CHECK(q.values.random);
  CHECK(q.values.grid.count() == 5);
  CHECK(q.values.grid.value(4) == 8);
  CHECK_FALSE(q.fixed());

  CHECK(load(lesson_q1 + "    scale: 2.5\n").questions[0].scale.kind == ScaleSpec::Kind::number);
  CHECK(load(lesson_q1 + "    scale: 2.5\n").questions[0].scale.number == 2.5);
}

TEST_CASE("dimensions are inferred from fixed inputs") {
  const QuestionSpec plain = load(yaml({"questions:", "  - task: all-tokens", "    tokens: [a, b]", "    inputs:",
                                        "      queries: {min: 0, max: 1}", "      keys: [[1, 2, 3], [4, 5, 6]]",
                                        "      values: [[1], [2]]", "    ask: [scores]"}))
                                 .questions[0];
  CHECK(plain.d_k == 3);
  CHECK(plain.d_v == 1);
  CHECK(plain.d_model == 0);

  // d_model from the embeddings' width; d_k and d_v from the tables' widths.
  const QuestionSpec projected = load(yaml({"questions:", "  - task: one-token", "    tokens: [a, b]",
                                            "    query_token: b", "    inputs:",
                                            "      embeddings: [[1, 0, 1], [0, 1, 1]]",
                                            "      w_q: [[1, 0], [0, 1], [1, 1]]", "      w_k: [[1, 0], [0, 1], [1, 1]]",
                                            "      w_v: [[1], [0], [2]]", "    ask: [query, keys, values, scores]"}))
                                     .questions[0];
  CHECK(projected.projections);
  CHECK(projected.d_model == 3);
  CHECK(projected.d_k == 2);
  CHECK(projected.d_v == 1);
  CHECK(projected.decimals(Part::query) == 0);
  CHECK(projected.decimals(Part::keys) == 0);
  CHECK(projected.decimals(Part::values) == 0);

  // With random embeddings, d_model is the height of a fixed table.
  const QuestionSpec heights = load(yaml({"questions:", "  - task: all-tokens", "    tokens: [a, b]",
                                          "    inputs:", "      embeddings: {min: 0, max: 2}",
                                          "      w_q: {min: 0, max: 2}", "      w_k: [[1], [0.5], [1], [1]]",
                                          "      w_v: {min: 0, max: 2}", "    d_v: 2",
                                          "    ask: [queries, keys, values]"}))
                                   .questions[0];
  CHECK(heights.d_model == 4);
  CHECK(heights.d_k == 1);
  CHECK(heights.decimals(Part::queries) == 0);
  CHECK(heights.decimals(Part::keys) == 2);
  CHECK(heights.decimals(Part::values) == 0);
}

TEST_CASE("grids in 0.1 steps give the doubles nearest their decimal spelling") {
  const QuestionSpec q = load(with_query_grid("{min: -0.3, max: 1, step: 0.1}") +
                              yaml({"      keys: {min: 0, max: 1, step: 0.01}",
                                    "      values: {min: 0.5, max: 2.5}", "    ask: [scores]"}))
                             .questions[0];
  const Grid& g = q.query.grid;
  CHECK(q.query.random);
  CHECK(g.min_units == -3);
  CHECK(g.max_units == 10);
  CHECK(g.step_units == 1);
  CHECK(g.decimals == 1);
  REQUIRE(g.count() == 14);
  const double expected[] = {-0.3, -0.2, -0.1, 0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0};
  for (int i = 0; i < 14; ++i) {
    INFO("index " << i);
    CHECK(g.value(i) == expected[i]);
  }
  CHECK(g.value(6) != 0.1 + 0.2);  // the naive sum is 0.30000000000000004
  CHECK_FALSE(q.query.integral());

  const Grid& k = q.keys.grid;
  CHECK(k.decimals == 2);
  CHECK(k.count() == 101);
  CHECK(k.value(7) == 0.07);
  CHECK(k.value(29) == 0.29);
  CHECK(k.value(100) == 1.0);

  // The default step of 1 counts in the finest decimals given.
  const Grid& v = q.values.grid;
  CHECK(v.decimals == 1);
  CHECK(v.step_units == 10);
  CHECK(v.count() == 3);
  CHECK(v.value(1) == 1.5);

  // Mixed decimals: the step sets the unit.
  const Grid mixed = load(with_query_grid("{min: 0.5, max: 2, step: 0.25}") +
                          yaml({"      keys: {min: 0, max: 1}", "      values: {min: 0, max: 1}", "    ask: [scores]"}))
                         .questions[0]
                         .query.grid;
  CHECK(mixed.decimals == 2);
  CHECK(mixed.min_units == 50);
  CHECK(mixed.max_units == 200);
  CHECK(mixed.step_units == 25);
  CHECK(mixed.count() == 7);
  CHECK(mixed.value(3) == 1.25);
}
