// The answer key as JSON (writers/key_json.h), as `attnmark key --format
// json` writes it: the documented shape, and null for a masked score.
#include "support/test_support.h"

#include <nlohmann/json.hpp>
#include <string>

TEST_CASE("key --format json has the documented shape") {
  const Run r = run_cli("key rubrics/lesson.yaml --seed 3 --student s001 --format json");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["rubric"] == "lesson");
  CHECK(j["student"] == "s001");
  CHECK(j["seed"] == 3);
  CHECK(j["variant"].get<std::string>().size() == 16);
  CHECK(j["generator"] == "attnmark-gen/2");
  const auto& q1 = j["questions"][0];
  CHECK(q1["id"] == "q1");
  CHECK(q1["task"] == "one-token");
  CHECK(q1["query_token"] == 2);
  CHECK(q1["scale"] == 1.0);
  CHECK(q1["mask"] == "none");
  CHECK(q1["inputs"]["query"] == nlohmann::json::array({1.0, 0.0}));
  CHECK(q1["answers"]["scores"] == nlohmann::json::array({2.0, 0.0, 1.0}));
  CHECK(q1["answers"]["output"][0].get<double>() == Approx(7.876).epsilon(0).margin(0.0005));
  const auto& q2 = j["questions"][1];
  CHECK(q2["query_token"].is_null());
  CHECK(q2["inputs"]["queries"].size() == 3);
  CHECK(q2["answers"]["weights"][2][0].get<double>() == Approx(0.665).epsilon(0).margin(0.0005));
  CHECK(j["questions"][2]["answers"]["most_attended"] == "is");
}

TEST_CASE("a masked score is null in the JSON key") {
  const Run r = run_cli("key rubrics/scaled-causal.yaml --seed 7 --student s001 --format json");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["questions"][0]["scale"] == 2.0);
  CHECK(j["questions"][0]["mask"] == "causal");
  CHECK(j["questions"][0]["answers"]["scores"][3].is_null());
  CHECK(j["questions"][0]["answers"]["weights"][3] == 0.0);
  CHECK(j["questions"][1]["answers"]["scores"][0][1].is_null());
}
