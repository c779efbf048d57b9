// Fuzzes readers/served_answers, what attnmark serve reads of every check:
// the first byte picks the input ('0' modulo 3: a form's fields, one
// name=value a line; 1: the JSON body of POST /api/check; 2: a stored answer
// file read back). Invariants: nothing throws; each Submission is exactly
// what read_answer_file reads from the answer file's text (the tree it is
// read from is built without parsing that text); the reader's invariants
// hold; and a form's answers, stored and read back into fields, make the
// same answers again.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "readers/answer_reader.h"
#include "readers/served_answers.h"
#include "fuzz_check.h"

using attnmark::fuzz::require;
using attnmark::fuzz::require_submission_invariants;

namespace {

const std::string source = "attnmark serve";

bool same(const attnmark::Submission& a, const attnmark::Submission& b) {
  if (a.source != b.source || a.student != b.student || a.name != b.name || a.rubric != b.rubric ||
      a.seed != b.seed || a.variant != b.variant || a.notes != b.notes || a.unreadable != b.unreadable ||
      a.answers.size() != b.answers.size())
    return false;
  for (auto i = a.answers.begin(), j = b.answers.begin(); i != a.answers.end(); ++i, ++j) {
    if (i->first != j->first || i->second.size() != j->second.size()) return false;
    for (auto p = i->second.begin(), q = j->second.begin(); p != i->second.end(); ++p, ++q)
      if (p->first != q->first || p->second.rows != q->second.rows || p->second.unreadable != q->second.unreadable ||
          p->second.shaped_by_sheet != q->second.shaped_by_sheet)
        return false;
  }
  return true;
}

// The submission of `sent` is its file's, read from the text.
void require_read_as_text(const attnmark::Submission& s, std::string_view file, const attnmark::ReadLimits& limits) {
  require_submission_invariants(s, source, limits.max_cells);
  require(same(s, attnmark::read_answer_file(file, source, limits)), "the submission is its file's, read from its text");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  attnmark::ReadLimits limits;
  limits.max_cells = 200;  // small, so the cap is reached too
  switch (data[0] % 3) {
    case 0: {
      std::map<std::string, std::string> fields;
      for (std::size_t at = 0; at <= text.size();) {
        std::size_t end = text.find('\n', at);
        if (end == std::string_view::npos) end = text.size();
        const std::string_view line = text.substr(at, end - at);
        const std::size_t equals = line.find('=');
        fields[std::string(line.substr(0, equals))] = equals == std::string_view::npos ? "" : std::string(line.substr(equals + 1));
        at = end + 1;
      }
      const attnmark::SentAnswers sent = attnmark::answers_from_form("s001", fields, source, limits);
      require_read_as_text(sent.submission, sent.file, limits);
      const attnmark::StoredAnswers back = attnmark::read_stored_answers(sent.file, source, limits);
      require(same(back.submission, sent.submission), "a stored form reads as it was sent");
      require(same(attnmark::answers_from_form("s001", back.fields, source, limits).submission, sent.submission),
              "a stored form's fields make the same answers again");
      break;
    }
    case 1: {
      std::string error;
      const auto request = attnmark::read_check_request(text, source, error, limits);
      require(request.has_value() == error.empty(), "a body is read or refused, with a reason");
      require(attnmark::fuzz::one_printable_line(error), "the refusal is one printable line");
      if (request) require_read_as_text(request->answers.submission, request->answers.file, limits);
      break;
    }
    default: {
      const attnmark::StoredAnswers stored = attnmark::read_stored_answers(text, source, limits);
      require_read_as_text(stored.submission, text, limits);
      break;
    }
  }
  return 0;
}
