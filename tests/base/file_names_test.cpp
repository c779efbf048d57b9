// File names (base/file_names.h): student ids become safe, unique file names.
#include "support/test_support.h"

#include <string>
#include <vector>

#include "base/file_names.h"

using namespace attnmark;

TEST_CASE("student ids become safe, unique file names inside the folder") {
  const auto stems = [](std::vector<std::string> ids) {
    FileStems names({"class-pack", "class-key"});
    std::vector<std::string> out;
    for (const std::string& id : ids) out.push_back(names.take(id));
    return out;
  };
  CHECK(stems({"../../etc/x"}) == std::vector<std::string>{"_._.._etc_x"});
  CHECK(stems({".hidden", "a b/c\\d", "Zoë"}) == std::vector<std::string>{"_hidden", "a_b_c_d", "Zo__"});
  CHECK(stems({"S1", "s1", "s1-2", "s1"}) == std::vector<std::string>{"S1", "s1-2", "s1-2-2", "s1-3"});
  CHECK(stems({"Class-Pack", "class-key"}) == std::vector<std::string>{"Class-Pack-2", "class-key-2"});
  const std::string long_id(70, 'a');
  const auto long_stems = stems({long_id, long_id + "b", long_id + "c"});
  CHECK(long_stems[0] == std::string(64, 'a'));
  CHECK(long_stems[1] == std::string(62, 'a') + "-2");
  CHECK(long_stems[2] == std::string(62, 'a') + "-3");
  for (const std::string& s : long_stems) CHECK(s.size() <= 64);
}

TEST_CASE("100,000 repeats of one id get -2 to -100000, each found in a step or two") {
  // (That it is linear, not quadratic, is measured in bench/: same-id.)
  FileStems names;
  std::string last;
  for (int i = 0; i < 100000; ++i) last = names.take("alice");
  CHECK(last == "alice-100000");
  CHECK(names.take("ALICE") == "ALICE-100001");
  CHECK(names.take("alice-7") == "alice-7-2");  // taken by a repeat: a classmate's own id comes first in mark
  CHECK(FileStems::stem("a/b") == "a_b");
  CHECK(FileStems::stem("con.txt") == "_con.txt");
}
