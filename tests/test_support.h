// test_support.h: helpers shared by the tests.
#pragma once

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "base/files.h"

// A scratch folder of this process's own: CTest runs test cases in parallel.
inline std::filesystem::path scratch() {
  static const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("attnmark-test-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  return dir;
}

// What a run of the attnmark binary did.
struct Run {
  int status;
  std::string out;
  std::string err;
};

// Runs the attnmark binary from the repository root with shell-quoted
// arguments: the one built beside the tests, or $ATTNMARK_TEST_BINARY
// (scripts/tsan runs tests against a ThreadSanitizer build this way).
inline Run run_cli(const std::string& args) {
  const std::filesystem::path dir = scratch();
  const std::string out = (dir / "stdout").string(), err = (dir / "stderr").string();
  const char* other = std::getenv("ATTNMARK_TEST_BINARY");
  const std::string binary = other && *other ? other : ATTNMARK_BINARY;
  const std::string command = std::string("cd '") + ATTNMARK_SOURCE_DIR + "' && '" + binary + "' " + args +
                              " >'" + out + "' 2>'" + err + "' </dev/null";
  const int raw = std::system(command.c_str());
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, attnmark::read_file(out, 1 << 26), attnmark::read_file(err, 1 << 24)};
}

// Compares generated output with tests/golden/NAME; ATTNMARK_UPDATE_GOLDEN=1
// rewrites the file instead (read the diff before committing it).
inline void check_golden(const std::string& name, const std::string& actual) {
  const std::string path = std::string(ATTNMARK_SOURCE_DIR) + "/tests/golden/" + name;
  if (std::getenv("ATTNMARK_UPDATE_GOLDEN")) {
    attnmark::write_file(path, actual);
    WARN("updated " << path);
    return;
  }
  INFO("golden file " << path << " (ATTNMARK_UPDATE_GOLDEN=1 rewrites it)");
  CHECK(attnmark::read_file(path, 1 << 24) == actual);
}

// The records of a CSV text (RFC 4180: quoted fields, "" escapes, CRLF or
// LF), read independently of attnmark's own CsvReader so that tests of what
// attnmark writes do not trust attnmark to read it back.
inline std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false, any = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
      else if (c == '"') quoted = false;
      else field += c;
    } else if (c == '"') {
      quoted = any = true;
    } else if (c == ',') {
      row.push_back(field), field.clear(), any = true;
    } else if (c == '\r' || c == '\n') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      row.push_back(field), field.clear();
      rows.push_back(row), row.clear();
      any = false;
    } else {
      field += c, any = true;
    }
  }
  if (any || !field.empty()) row.push_back(field), rows.push_back(row);
  return rows;
}
