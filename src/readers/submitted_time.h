// readers/submitted_time.h: the time a submission says it was handed in, read
// from the text a form, an LMS or a student wrote, as the rule of which
// submission counts compares it (marking/inputs.h). Pure: no clock, no time
// zone of the machine, no locale.
//
//   std::optional<std::int64_t> t = parse_submitted_time("2026/12/01 10:02:03 AM GMT+1");
//   *t == 1796115723;  utc_text(*t) == "2026-12-01T09:02:03Z"
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnmark {

// How a date written with the year last is read: 12/1/2026 is the 1st of
// December month first (the United States' way, which Google Sheets and
// Microsoft Forms export by default), the 12th of January day first.
enum class DateOrder { month_first, day_first };

// The order the year-last dates of one column are written in: day first when
// some date can only be read that way (13/1/2026) and none can only be read
// month first (1/13/2026); else month first. A column's dates share their
// order, so one unambiguous date decides them all.
DateOrder date_order_of(const std::vector<std::string>& texts);

// Seconds since 1970-01-01T00:00:00Z of a time as written, to the second
// (fractions are dropped), or nullopt when it is not one of these (after
// trimming spaces; letters in any case):
//
//   2026-12-01T10:02:03Z  2026-12-01T10:02Z  2026-12-01 10:02:03.123+01:00  2026-12-01
//                                          ISO 8601 / RFC 3339, an answer file's `submitted:`
//   2026/12/01 10:02:03 AM GMT+1           Google Forms' "Timestamp" in its CSV download
//   12/1/2026 10:02:03  12/1/26 10:02 PM   Google Sheets, Microsoft Forms' "Completion time"
//                                          (year last: `order` says which comes first)
//   1.12.2026 10:02                        year last with dots: always day first
//
// Between date and time: 'T', spaces, or a comma and spaces. The time is
// H:MM or H:MM:SS, with AM or PM (12 AM is midnight) or in 24 hours. The
// zone, after the time (spaces allowed): Z, UTC, GMT, or an offset: +01:00,
// +0100, +01, GMT+1, GMT+5:30, UTC-07:00. A time without a zone is read as
// UTC: its submissions are then compared as written. A two-digit year is
// 20YY. Dates and times are checked (no 31 April, no 25:00, no 13 PM).
std::optional<std::int64_t> parse_submitted_time(std::string_view text, DateOrder order = DateOrder::month_first);

// The time in UTC as ISO 8601: "2026-12-01T09:02:03Z".
std::string utc_text(std::int64_t seconds);

}  // namespace attnmark
