// Worksheets of a served class (generate --db --url): the student's code and
// the class page's address are printed, and the seed is not, in every
// format, since with the rubric the seed makes every classmate's key.
#include <nlohmann/json.hpp>

#include "support/serve_support.h"

namespace fs = std::filesystem;
using attnmark::read_file;

TEST_CASE("serve: a served class's worksheets print the access code and never the seed", "[serve]") {
  const fs::path dir = scratch() / "serve-sheets";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string seed = "987654321";
  const std::string db = (dir / "class.sqlite").string();
  const std::string roster = write_roster(dir, 2);
  {
    ServeProcess server("rubrics/lesson.yaml --seed " + seed + " --roster '" + roster + "' --db '" + db + "'", dir);
    REQUIRE(server.running());
  }
  const std::string code = code_of(db, "s001");
  REQUIRE(code.size() == 11);
  for (const std::string format : {"md", "html", "tex", "ipynb"}) {
    CAPTURE(format);
    const std::string served = (dir / ("served." + format)).string();
    const std::string plain = (dir / ("plain." + format)).string();
    Run r = run_cli("generate rubrics/lesson.yaml --seed " + seed + " --student s001 --db '" + db +
                    "' --url http://class.example/ -o '" + served + "'");
    REQUIRE(r.status == 0);
    r = run_cli("generate rubrics/lesson.yaml --seed " + seed + " --student s001 -o '" + plain + "'");
    REQUIRE(r.status == 0);
    // (LaTeX lets a long address break anywhere, and keeps "--" from becoming a dash.)
    const auto text = [&](const std::string& path) {
      std::string t = read_file(path, 1 << 22);
      if (format == "tex")
        for (const std::string mark : {"\\allowbreak{}", "{}"})
          for (std::size_t at; (at = t.find(mark)) != std::string::npos;) t.erase(at, mark.size());
      return t;
    };
    const std::string sheet = text(served), unserved = text(plain);
    CHECK(sheet.find(code) != std::string::npos);
    CHECK(sheet.find("http://class.example/") != std::string::npos);
    CHECK(sheet.find(seed) == std::string::npos);
    CHECK(unserved.find(seed) != std::string::npos);  // the same sheet, not served, says it
  }
  // The notebook's header records no seed, in its cell and its own metadata.
  const nlohmann::json nb = nlohmann::json::parse(read_file((dir / "served.ipynb").string(), 1 << 22));
  CHECK(nb["cells"][0]["metadata"]["attnmark"]["student"] == "s001");
  CHECK_FALSE(nb["cells"][0]["metadata"]["attnmark"].contains("seed"));
  CHECK_FALSE(nb["metadata"]["attnmark"].contains("seed"));
  // A JSON worksheet is the variant, seed and all.
  const Run json = run_cli("generate rubrics/lesson.yaml --seed " + seed + " --student s001 --db '" + db +
                           "' --url http://class.example/ --format json");
  CHECK(json.status == 2);
  CHECK(json.err ==
        "attnmark: --db: a served class's worksheets are md, html, tex or ipynb; a JSON worksheet records the seed\n");
  CHECK(json.out.empty());
  // The teacher's key of a served class still records it.
  const Run key = run_cli("key rubrics/lesson.yaml --seed " + seed + " --student s001");
  CHECK(key.out.find("Seed: " + seed) != std::string::npos);
}
