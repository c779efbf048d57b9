// serve/served_class.h: the served lesson class the loopback HTTP tests
// share (serve/server_test.cpp, serve/live_server_test.cpp): a fresh folder
// for it, the arguments of `attnmark serve` that start it, and a check's
// JSON body for POST /api/check.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "support/test_support.h"

// A fresh folder for one test case's class.
inline std::filesystem::path class_dir(const std::string& name) {
  const std::filesystem::path dir = scratch() / ("serve-" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// The seed of the served test classes: digits unlikely to occur by chance in a page.
inline const std::string seed = "987654321";

// The arguments of `attnmark serve` for `rubric` (a path from the repository
// root) with the roster CSV `roster`, its database in `dir`, then `more`.
inline std::string serve_args(const std::filesystem::path& dir, const std::string& roster, const std::string& more = "",
                              const std::string& rubric = "rubrics/lesson.yaml") {
  return rubric + " --seed " + seed + " --roster '" + roster + "' --db '" + (dir / "class.sqlite").string() + "' " + more;
}

// The body of POST /api/check: `answers` is a JSON object of questions, as in an answer file.
inline std::string check_body(const std::string& student, const std::string& code, const std::string& answers) {
  return "{\"student\":" + nlohmann::json(student).dump() + ",\"code\":" + nlohmann::json(code).dump() +
         ",\"answers\":" + answers + "}";
}

// The lesson's q1 with the hard-attention mistake in its weights (its scores right).
inline const std::string hard_attention = R"({"q1":{"scores":[2,0,1],"weights":["1","0","0"]}})";

// Answers that differ from check to check, as a check the same as the
// student's last is not stored: hard attention with its third score `n`.
inline std::string hard_attention_with(int n) {
  return R"({"q1":{"scores":[2,0,)" + std::to_string(n) + R"(],"weights":["1","0","0"]}})";
}
