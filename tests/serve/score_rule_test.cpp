// Which attempt counts (serve/score_rule.h): the one rule the gradebook and
// the teacher's page follow.
#include "serve/score_rule.h"

#include "attnmark/base/error.h"
#include "serve/classroom.h"
#include "support/test_support.h"

using attnmark::AttemptRecord;
using attnmark::counts_over;
using attnmark::ScoreRule;

namespace {

AttemptRecord attempt(std::int64_t id, double score, const std::string& answers = "{}") {
  return {id, "s001", "2026-12-01T08:00:00Z", answers, score, 3, "{}"};
}

}  // namespace

TEST_CASE("serve: a later attempt counts over an earlier one when it is last, or when its score is higher") {
  CHECK(counts_over(attempt(2, 1), attempt(1, 2), ScoreRule::last));
  CHECK(counts_over(attempt(2, 2), attempt(1, 2), ScoreRule::last));
  CHECK(counts_over(attempt(2, 3), attempt(1, 2), ScoreRule::best));
  CHECK_FALSE(counts_over(attempt(2, 2), attempt(1, 2), ScoreRule::best));  // of equals, the earliest
  CHECK_FALSE(counts_over(attempt(2, 1), attempt(1, 2), ScoreRule::best));
  CHECK(attnmark::parse_score_rule("best") == ScoreRule::best);
  CHECK(attnmark::parse_score_rule("last") == ScoreRule::last);
  CHECK_THROWS_WITH(attnmark::parse_score_rule("first"), "--score: expected best or last; got 'first'");
}

TEST_CASE("serve: the gradebook takes each student's attempt that counts: the best, the earliest of equals, or the last") {
  const attnmark::ClassRecord record{std::string(64, 'a'),
                                     attnmark::read_file(std::string(ATTNMARK_SOURCE_DIR) + "/rubrics/lesson.yaml", 1 << 20),
                                     "lesson.yaml", 2026, "student,name\ns001,Ada\ns002,Alan\n", "roster.csv"};
  const attnmark::Classroom room = attnmark::Classroom::from_record(record);
  // Told apart by how many cells each answers.
  const auto answering = [](int cells) {
    std::string row;
    for (int i = 0; i < cells; ++i) row += std::string(i ? "," : "") + "\"1\"";
    return R"({"student":"s001","answers":{"q1":{"scores":[)" + row + "]}}}";
  };
  const std::vector<AttemptRecord> attempts = {attempt(1, 2, answering(1)), attempt(2, 2, answering(2)),
                                               attempt(3, 1, answering(3))};
  const auto counted = [&](ScoreRule rule) {
    const std::vector<attnmark::GradedSubmission> rows = room.gradebook(attempts, rule);
    REQUIRE(rows.size() == 2);
    CHECK(rows[0].name == "Ada");
    CHECK(rows[1].status == attnmark::SubmissionStatus::missing);
    REQUIRE(rows[0].marked);
    return rows[0].marked->answered;
  };
  CHECK(counted(ScoreRule::best) == 1);
  CHECK(counted(ScoreRule::last) == 3);
}
