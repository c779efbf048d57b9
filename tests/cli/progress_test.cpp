#include "cli/progress.h"

#include <catch2/catch.hpp>
#include <algorithm>
#include <sstream>
#include <thread>
#include <vector>

#include "support/test_support.h"

using attnmark::Progress;

TEST_CASE("progress: drawn on a terminal from the first second, at most 10 times a second, then cleared") {
  double now = 100;
  std::ostringstream out;
  {
    Progress p("marking", 3000, out, true, [&] { return now; });
    p.done(10);
    CHECK(out.str().empty());  // within the first second; the pace is counted from here:
                               // 1,224 in 1.5 s leaves 1,766 for 2.2 s
    now = 101.5;
    p.done(1234);
    const std::string first = "\rattnmark: marking 1,234 / 3,000 [########............] 41%, 2.2 s left";
    CHECK(out.str() == first);
    now = 101.55;
    p.done(1300);
    CHECK(out.str() == first);  // 50 ms later: not redrawn
    now = 102;
    p.done(3000);
    const std::string last = "\rattnmark: marking 3,000 / 3,000 [####################] 100%";
    CHECK(out.str() == first + last + std::string(first.size() - last.size(), ' '));
    CHECK(p.took() == "2.0 s");
    p.finish();
    CHECK(out.str().ends_with("\r" + std::string(last.size() - 1, ' ') + "\r"));
  }
  // Not a terminal: nothing, however long it takes.
  std::ostringstream piped;
  now = 0;
  Progress quiet("generating", 10, piped, false, [&] { return now; });
  now = 50;
  quiet.done(5);
  quiet.finish();
  CHECK(piped.str().empty());
  CHECK(quiet.took() == "50 s");
}

TEST_CASE("progress: durations for people") {
  CHECK(attnmark::duration_text(0.42) == "0.4 s");
  CHECK(attnmark::duration_text(26.4) == "26 s");
  CHECK(attnmark::duration_text(365) == "6 min 5 s");
  CHECK(attnmark::duration_text(7260) == "2 h 1 min");
}

TEST_CASE("scripts/build: a progress line on a terminal, silence elsewhere, the log when the build fails") {
  namespace fs = std::filesystem;
  const fs::path dir = scratch() / "scripts-build";
  fs::remove_all(dir);
  fs::create_directories(dir);
  // A project of two objects, with a preset as the repository's.
  attnmark::write_file((dir / "CMakePresets.json").string(),
                       R"({"version": 3, "configurePresets": [{"name": "p", "binaryDir": "${sourceDir}/b"}],)"
                       R"( "buildPresets": [{"name": "p", "configurePreset": "p"}]})");
  attnmark::write_file((dir / "CMakeLists.txt").string(),
                       "cmake_minimum_required(VERSION 3.25)\nproject(t CXX)\nadd_executable(t a.cpp b.cpp)\n");
  attnmark::write_file((dir / "a.cpp").string(), "int b();\nint main() { return b(); }\n");
  attnmark::write_file((dir / "b.cpp").string(), "int b() { return 0; }\n");
  const std::string script = std::string(ATTNMARK_SOURCE_DIR) + "/scripts/build";
  const auto run = [&](const std::string& command) {
    const std::string err = (dir / "err").string();
    const int raw = std::system(("cd '" + dir.string() + "' && " + command + " 2>'" + err + "' >/dev/null").c_str());
    return std::make_pair(WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, attnmark::read_file(err, 1 << 20));
  };
  // Not a terminal: the one last line.
  auto [status, err] = run("'" + script + "' p");
  CHECK(status == 0);
  CHECK(err.starts_with("built p in "));
  CHECK(std::count(err.begin(), err.end(), '\n') == 1);
  // On a terminal (script(1) gives it one): the line, rewritten in place, with the bar.
  fs::remove_all(dir / "b");
  const int raw = std::system(("cd '" + dir.string() + "' && script -qec \"'" + script + "' p\" /dev/null >'" +
                               (dir / "tty").string() + "' </dev/null").c_str());
  status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  err = attnmark::read_file((dir / "tty").string(), 1 << 20);
  CHECK(status == 0);
  CHECK(err.find("\r\033[Kbuilding p: [####################] 100% (") != std::string::npos);
  CHECK(err.find("built p in ") != std::string::npos);
  // A failing build: its log, and how long it ran.
  attnmark::write_file((dir / "b.cpp").string(), "int b() { return nope; }\n");
  std::tie(status, err) = run("'" + script + "' p");
  CHECK(status != 0);
  CHECK(err.find("nope") != std::string::npos);
  CHECK(err.find("was not declared") != std::string::npos);
  CHECK(err.find("scripts/build: building p failed after ") != std::string::npos);
}

TEST_CASE("progress: a string stream is no terminal, and step() counts from several threads") {
  std::ostringstream out;
  CHECK_FALSE(attnmark::is_terminal(out));
  double now = 0;
  Progress p("writing", 400, out, true, [&] { return now; });
  now = 5;
  std::vector<std::thread> workers;
  for (int t = 0; t < 4; ++t)
    workers.emplace_back([&] {
      for (int i = 0; i < 100; ++i) p.step();
    });
  for (std::thread& w : workers) w.join();
  std::string drawn = out.str();
  drawn.erase(drawn.find_last_not_of(' ') + 1);  // the padding over a longer line before
  CHECK(drawn.ends_with("\rattnmark: writing 400 / 400 [####################] 100%"));
}
