// support/revealing_rubric.h: a shipped rubric that reveals answers, for
// the tests of check --reveal.
#pragma once

#include <filesystem>
#include <string>

#include "support/test_support.h"

// The path of a copy of rubrics/<name>.yaml that says reveal_answers: true
// (the shipped rubrics never reveal), in this process's scratch folder.
inline std::string revealing_rubric(const std::string& name) {
  std::string text = attnmark::read_file(std::string(ATTNMARK_SOURCE_DIR) + "/rubrics/" + name + ".yaml", 1 << 20);
  const std::size_t at = text.find("\nquestions:");
  REQUIRE(at != std::string::npos);
  text.insert(at + 1, "reveal_answers: true\n");
  const std::filesystem::path dir = scratch() / "revealing";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / (name + ".yaml")).string();
  attnmark::write_file(path, text);
  return path;
}
