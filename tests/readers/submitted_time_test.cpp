// readers/submitted_time: the times forms, LMSs and answer files write, read
// to the second in UTC, and what is not a time.
#include "support/test_support.h"

#include <optional>
#include <string>

#include "readers/submitted_time.h"

using attnmark::date_order_of;
using attnmark::DateOrder;
using attnmark::parse_submitted_time;
using attnmark::utc_text;

namespace {

// The time read, in UTC, or "none".
std::string read(const std::string& text, DateOrder order = DateOrder::month_first) {
  const std::optional<std::int64_t> t = parse_submitted_time(text, order);
  return t ? utc_text(*t) : "none";
}

}  // namespace

TEST_CASE("ISO 8601 times, an answer file's submitted:, to the second in UTC") {
  CHECK(parse_submitted_time("1970-01-01T00:00:00Z") == 0);
  CHECK(parse_submitted_time("2026-12-01T09:02:03Z") == 1796115723);
  CHECK(read("2026-12-01T10:02Z") == "2026-12-01T10:02:00Z");
  CHECK(read("2026-12-01T10:02:03+01:00") == "2026-12-01T09:02:03Z");
  CHECK(read("2026-12-01 10:02:03.987654-07:00") == "2026-12-01T17:02:03Z");  // fractions dropped
  CHECK(read("2026-12-01T10:02:03-0730") == "2026-12-01T17:32:03Z");
  CHECK(read("2026-12-01T00:30:00+01") == "2026-11-30T23:30:00Z");
  CHECK(read("2026-12-01t10:02:03z") == "2026-12-01T10:02:03Z");
  CHECK(read("2026-12-01 10:02:03 UTC") == "2026-12-01T10:02:03Z");
  CHECK(read("  2026-12-01T10:02:03  ") == "2026-12-01T10:02:03Z");
  CHECK(read("2026-12-01T10:02:03") == "2026-12-01T10:02:03Z");  // no zone: read as UTC
  CHECK(read("2026-12-01") == "2026-12-01T00:00:00Z");
  CHECK(read("2028-02-29T12:00:00Z") == "2028-02-29T12:00:00Z");
  CHECK(read("2000-02-29") == "2000-02-29T00:00:00Z");
  CHECK(read("1969-12-31T23:59:59Z") == "1969-12-31T23:59:59Z");
  CHECK(parse_submitted_time("1969-12-31T23:59:59Z") == -1);
}

TEST_CASE("Google Forms' Timestamp, as its CSV download and Sheets write it") {
  CHECK(read("2026/12/01 10:02:03 AM GMT+1") == "2026-12-01T09:02:03Z");
  CHECK(read("2026/12/01 10:02:03 PM GMT+1") == "2026-12-01T21:02:03Z");
  CHECK(read("2026/12/01 12:00:01 AM GMT") == "2026-12-01T00:00:01Z");  // 12 AM is midnight
  CHECK(read("2026/12/01 12:00:01 PM GMT-5") == "2026-12-01T17:00:01Z");
  CHECK(read("2026/12/01 9:15:00 am GMT+5:30") == "2026-12-01T03:45:00Z");
  CHECK(read("2026/12/01 9:15:00 AM GMT+0530") == "2026-12-01T03:45:00Z");
  CHECK(read("12/1/2026 10:02:03") == "2026-12-01T10:02:03Z");
  CHECK(read("12/1/2026 22:02:03") == "2026-12-01T22:02:03Z");
  CHECK(read("12/1/2026") == "2026-12-01T00:00:00Z");
}

TEST_CASE("Microsoft Forms' Completion time, and dates with the year last") {
  CHECK(read("12/1/26 10:02:03") == "2026-12-01T10:02:03Z");
  CHECK(read("12/1/26 10:02 PM") == "2026-12-01T22:02:00Z");
  CHECK(read("12/1/2026, 10:02:03 AM") == "2026-12-01T10:02:03Z");
  CHECK(read("12/1/2026 10:02:03", DateOrder::day_first) == "2026-01-12T10:02:03Z");
  CHECK(read("02/03/2026 15:31:00", DateOrder::day_first) == "2026-03-02T15:31:00Z");
  CHECK(read("1.12.2026 10:02") == "2026-12-01T10:02:00Z");  // dots: day first whatever the order
  CHECK(read("13/1/2026 10:02:03") == "none");               // no 13th month
  CHECK(read("13/1/2026 10:02:03", DateOrder::day_first) == "2026-01-13T10:02:03Z");
}

TEST_CASE("what is not a time is refused, not guessed") {
  for (const char* text : {"", "yesterday", "2026-13-01", "2026-02-29", "2026-04-31", "2026-12-01T24:00:00Z",
                           "2026-12-01T10:60Z", "2026-12-01T10:02:61Z", "2026-12-01T10Z", "2026-12-01T10:2Z",
                           "2026/12/01 13:00:00 PM", "2026/12/01 0:30 AM", "2026-12-01T10:02:03+15:00",
                           "2026-12-01T10:02:03 CET", "2026-12-01T10:02:03Z extra", "2026-12-01Z", "20261201",
                           "12/1/123 10:02", "123/1/2026", "2026.12.01", "12/1-2026", "2026-12-01T10:02:03.",
                           "12026-12-01", "1/2/3"})
    CHECK(read(text) == "none");
}

TEST_CASE("a column's dates with the year last share one order, decided by a date only one order reads") {
  CHECK(date_order_of({}) == DateOrder::month_first);
  CHECK(date_order_of({"02/03/2026 09:17:00", "02/03/2026 15:31:00"}) == DateOrder::month_first);  // either: month first
  CHECK(date_order_of({"02/03/2026 09:17:00", "13/03/2026 15:31:00"}) == DateOrder::day_first);
  CHECK(date_order_of({"3/13/2026 09:17:00", "02/03/2026 15:31:00"}) == DateOrder::month_first);
  CHECK(date_order_of({"13/03/2026", "3/13/2026"}) == DateOrder::month_first);  // both kinds: month first
  CHECK(date_order_of({"2026/12/13 10:02:03 AM GMT+1", "yesterday", ""}) == DateOrder::month_first);
}
