// writers/zip_writer: stored zip archives, checked byte for byte and read back
// by Python's zipfile (a reader that is not attnmark's).
#include "support/test_support.h"

#include <string>

#include "attnmark/base/error.h"
#include "base/files.h"
#include "writers/zip_writer.h"

namespace {

std::string hex(const std::string& bytes) {
  constexpr char digits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) out += digits[c >> 4], out += digits[c & 15];
  return out;
}

// Runs python3 on `script` with the archive's path as argv[1]; its stdout.
std::string python(const std::string& script, const std::string& zip_bytes) {
  const auto dir = scratch();
  const std::string zip = (dir / "zip_writer_test.zip").string(), out = (dir / "zip_writer_test.out").string();
  attnmark::write_file(zip, zip_bytes);
  attnmark::write_file((dir / "zip_writer_test.py").string(), script);
  const std::string command =
      "python3 '" + (dir / "zip_writer_test.py").string() + "' '" + zip + "' >'" + out + "' 2>&1";
  const int status = std::system(command.c_str());
  const std::string text = attnmark::read_file(out, 1 << 20);
  INFO(text);
  REQUIRE(status == 0);
  return text;
}

}  // namespace

TEST_CASE("crc32 is the CRC-32 of zip and PNG") {
  CHECK(attnmark::crc32("") == 0u);
  CHECK(attnmark::crc32("123456789") == 0xCBF43926u);
  CHECK(attnmark::crc32("hi") == 0xD8932AACu);
}

TEST_CASE("ZipWriter writes a stored entry byte for byte") {
  attnmark::ZipWriter zip;
  zip.add("a", "hi");
  const std::string bytes = zip.finish();
  CHECK(bytes.size() == 102);
  // The same bytes as Python's struct.pack of the headers in APPNOTE.TXT's layout.
  CHECK(hex(bytes) ==
        // local header: signature, needs 1.0, flags 0, stored, 00:00, 1980-01-01, CRC, sizes 2 and 2, name 1; "a", "hi"
        "504b0304" "0a00" "0000" "0000" "0000" "2100" "ac2a93d8" "02000000" "02000000" "0100" "0000" "61" "6869"
        // central directory: made by Unix 2.0, needs 1.0, ..., attributes (0100644 << 16), offset 0, "a"
        "504b0102" "1403" "0a00" "0000" "0000" "0000" "2100" "ac2a93d8" "02000000" "02000000" "0100" "0000" "0000"
        "0000" "0000" "0000a481" "00000000" "61"
        // end of central directory: 1 entry, 47 bytes at offset 33
        "504b0506" "0000" "0000" "0100" "0100" "2f000000" "21000000" "0000");
}

TEST_CASE("ZipWriter: python's zipfile reads names, bytes, modes and CRCs back") {
  attnmark::ZipWriter zip;
  zip.add("setup.sh", "#!/bin/sh\necho hi\n", 0755);
  zip.add("src/cli/main.cpp", "int main() {}\n");
  zip.add("rubrics/été.yaml", std::string("name: x\n\0\xff", 10));
  zip.add("empty", "");
  const std::string bytes = zip.finish();
  const std::string out = python(
      "import sys, zipfile\n"
      "z = zipfile.ZipFile(sys.argv[1])\n"
      "print(z.testzip())\n"
      "for i in z.infolist():\n"
      "    print(i.filename, oct(i.external_attr >> 16), i.compress_type, i.file_size, i.date_time, z.read(i) != b'')\n"
      "print(repr(z.read('rubrics/été.yaml')))\n",
      bytes);
  CHECK(out ==
        "None\n"
        "setup.sh 0o100755 0 18 (1980, 1, 1, 0, 0, 0) True\n"
        "src/cli/main.cpp 0o100644 0 14 (1980, 1, 1, 0, 0, 0) True\n"
        "rubrics/été.yaml 0o100644 0 10 (1980, 1, 1, 0, 0, 0) True\n"
        "empty 0o100644 0 0 (1980, 1, 1, 0, 0, 0) False\n"
        "b'name: x\\n\\x00\\xff'\n");
  // The same entries give the same bytes; finish() leaves the writer empty.
  attnmark::ZipWriter again;
  again.add("setup.sh", "#!/bin/sh\necho hi\n", 0755);
  again.add("src/cli/main.cpp", "int main() {}\n");
  again.add("rubrics/été.yaml", std::string("name: x\n\0\xff", 10));
  again.add("empty", "");
  CHECK(again.finish() == bytes);
  CHECK(zip.finish().size() == 22);  // an empty archive: the end record only
}

TEST_CASE("ZipWriter refuses names an archive must not hold, and a name twice") {
  attnmark::ZipWriter zip;
  zip.add("a/b.txt", "x");
  for (const char* bad : {"", "/etc/passwd", "../x", "a/../../x", "a//b", "a/", "./a", "a\\b"}) {
    INFO(bad);
    CHECK_THROWS_AS(zip.add(bad, "x"), attnmark::Error);
  }
  CHECK_THROWS_WITH(zip.add("a/b.txt", "y"), "zip: 'a/b.txt' is added twice");
  CHECK_THROWS_WITH(zip.add("../x", "y"), "zip: '../x' is not a file name an archive can hold");
}
