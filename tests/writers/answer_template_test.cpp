// The blank answer file (writers/answer_template.h): whatever the id, the
// student's own file reads back as that id.
#include "support/test_support.h"

#include <string>
#include <vector>

#include "readers/answer_reader.h"
#include "writers/answer_template.h"

using namespace attnmark;

namespace {

// Ids that YAML would read as something else, or fold, when written plainly.
const std::vector<std::string> nasty_ids = {
    "yes", "no", "on", "null", "~", "123", "0x1F", "1e3", "-1", ".inf", "#x", "a #b", "a: b", "a:b", "'q'", "\"q\"",
    "- x", "[x]", "{x: 1}", "&a", "*a", "!tag", "%x", "@x", "`x`", "|", ">", "a\\b", "a\\nb", "x---", "---",
    "...", "? x", "<img src=x onerror=alert(1)>", "Jos\xC3\xA9", "\xE6\x97\xA5\xE6\x9C\xAC", "a  b", "\xEF\xBB\xBFx",
    "\xEF\xBF\xBE", "x\xC2\xA0", "*a_b*|c",
};

}  // namespace

TEST_CASE("the answer template's id reads back as exactly the same id") {
  const Rubric rubric = shipped("lesson");
  for (const std::string& id : nasty_ids) {
    INFO("id: " << id);
    const Variant variant = make_variant(rubric, 2026, id);
    const std::string text = render_answer_template(rubric, variant);
    const Submission s = read_answer_file(text, id + ".answers.yaml");
    CHECK(s.unreadable == "");
    CHECK(s.student == id);
    CHECK(s.variant == variant.id_text());
    CHECK(s.notes.empty());
  }
}

TEST_CASE("the answer template escapes what a double-quoted YAML scalar cannot hold as it is") {
  const Rubric rubric = shipped("lesson");
  const std::string text = render_answer_template(rubric, make_variant(rubric, 2026, "a\"b\\c\xE2\x80\xAE" "d\x1B"));
  CHECK(count(text, "student: \"a\\\"b\\\\c\\u202Ed\\u001B\"\n") == 1);
}
