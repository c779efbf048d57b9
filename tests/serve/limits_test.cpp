// Checks per student per minute, the caps' words, and the sign-in rule:
// a right code always signs in, wrong ones are slowed per (address, id), id
// and address, and a flooding address waits its turn.
#include "serve/limits.h"

#include <set>

#include "attnmark/base/error.h"
#include "support/serve_support.h"

using attnmark::CheckRate;
using attnmark::SignIn;
using attnmark::SignInLimits;

namespace {

const std::function<bool()> wrong = [] { return false; };
const std::function<bool()> right = [] { return true; };

std::string guess(int i) { return "guess" + std::to_string(i); }

}  // namespace

TEST_CASE("limits: sizes and the caps are written as the rules line says them", "[limits]") {
  CHECK(attnmark::byte_size_text(0) == "0 bytes");
  CHECK(attnmark::byte_size_text(1) == "1 byte");
  CHECK(attnmark::byte_size_text(1023) == "1023 bytes");
  CHECK(attnmark::byte_size_text(1024) == "1 KiB");
  CHECK(attnmark::byte_size_text(1536) == "1.5 KiB");
  CHECK(attnmark::byte_size_text(2 * attnmark::mebibyte) == "2 MiB");
  CHECK(attnmark::byte_size_text(12900000) == "12.3 MiB");
  CHECK(attnmark::byte_size_text(attnmark::gibibyte) == "1 GiB");
  CHECK(attnmark::limits_rules_text({}) ==
        "at most 30 checks a minute per student; up to 2 MiB of attempts stored per student and 1 GiB in all "
        "(later checks are answered, not stored)");
  CHECK(attnmark::limits_rules_text({1, 512 * attnmark::kibibyte, 3 * attnmark::gibibyte}) ==
        "at most 1 check a minute per student; up to 512 KiB of attempts stored per student and 3 GiB in all "
        "(later checks are answered, not stored)");
}

TEST_CASE("limits: a student's checks past the minute's allowance are refused, saying when to try again", "[limits]") {
  CheckRate rate(30);
  const std::int64_t t = 1'000'000;
  for (int i = 0; i < 30; ++i) CHECK(rate.take("s001", t + i * 1000).ok);  // one a second for 30 s
  const attnmark::CheckTurn refused = rate.take("s001", t + 48'000);
  CHECK_FALSE(refused.ok);
  CHECK(refused.retry_after_seconds == 12);  // the first check turns a minute old at t + 60 s
  CHECK(refused.message ==
        "you have checked 30 times in the last minute (this class allows 30 a minute); try again in 12 seconds");
  CHECK(rate.take("s002", t + 48'000).ok);  // another student is not held up
  // A refused check is not counted: the window slides on the checks made.
  CHECK(rate.take("s001", t + 59'999).message.ends_with("try again in 1 second"));
  CHECK(rate.take("s001", t + 60'000).ok);
  CHECK_FALSE(rate.take("s001", t + 60'500).ok);
  CHECK(rate.take("s001", t + 61'000).ok);
  CHECK(rate.limited(t + 61'000) == std::vector<std::pair<std::string, std::int64_t>>{{"s001", 1}});
  CHECK(rate.limited(t + 62'000).empty());
  // The teacher clears it: at once, whatever the window holds.
  for (int i = 0; i < 30; ++i) rate.take("s003", t);
  CHECK_FALSE(rate.take("s003", t).ok);
  CHECK(rate.clear("s003"));
  CHECK_FALSE(rate.clear("s003"));
  CHECK(rate.take("s003", t).ok);
}

TEST_CASE("limits: a right code signs in however many failures others made on that id", "[limits]") {
  // The lockout this replaces: 10 wrong codes for an id refused its right code for 15 minutes.
  SignInLimits limits(std::string(64, 'a'));
  const std::int64_t t = 5'000'000;
  for (int i = 0; i < 1000; ++i) {
    const SignIn s = limits.sign_in("s001", "10.1." + std::to_string(i / 250) + "." + std::to_string(i % 250), "", t, wrong);
    CHECK(s.status == 401);
  }
  const SignIn in = limits.sign_in("s001", "10.9.9.9", "", t, right);
  CHECK(in.ok);
  CHECK(in.status == 0);
  CHECK(in.delay_ms == 0);
  // ... and the shared address of a class behind NAT that made 5 of those failures too.
  SignInLimits nat(std::string(64, 'a'));
  for (int k = 0; k < 5; ++k) nat.sign_in("s001", "192.0.2.1", "", t, wrong);
  CHECK(nat.sign_in("s001", "192.0.2.1", "", t, right).ok);
}

TEST_CASE("limits: wrong codes past the free allowance are answered later and later, to 4 s", "[limits]") {
  SignInLimits limits(std::string(64, 'a'));
  const std::int64_t t = 5'000'000;
  std::vector<std::int64_t> delays;
  for (int i = 0; i < 12; ++i) {
    const SignIn s = limits.sign_in("s001", "10.0.0.7", "", t + i, wrong);
    CHECK(s.status == 401);
    CHECK(s.message == "wrong student id or access code");
    delays.push_back(s.delay_ms);
  }
  // 5 free for the (address, id), then 250 ms doubling, at most 4 s.
  CHECK(delays == std::vector<std::int64_t>{0, 0, 0, 0, 0, 250, 500, 1000, 2000, 4000, 4000, 4000});
  // The same id from another address: its own pair is free, but the id has 12 failures (10 free).
  CHECK(limits.sign_in("s001", "10.0.0.8", "", t, wrong).delay_ms == 1000);
  // A right code is never held for failures.
  CHECK(limits.sign_in("s001", "10.0.0.7", "", t, right).delay_ms == 0);
  // Per address: 20 free, spread over ids.
  SignInLimits spread(std::string(64, 'a'));
  for (int i = 0; i < 20; ++i) CHECK(spread.sign_in(guess(i), "10.0.0.9", "", t, wrong).delay_ms == 0);
  CHECK(spread.sign_in(guess(20), "10.0.0.9", "", t, wrong).delay_ms == 250);
  CHECK(spread.sign_in(guess(21), "10.0.0.10", "", t, wrong).delay_ms == 0);
  // After 15 minutes from the first failure the window starts again.
  CHECK(spread.sign_in(guess(22), "10.0.0.9", "", t + SignInLimits::window_ms, wrong).delay_ms == 0);
}

TEST_CASE("limits: from 100 failures an address waits its turn, one a second, and past 10 s is 429 unchecked", "[limits]") {
  SignInLimits limits(std::string(64, 'a'));
  const std::int64_t t = 5'000'000;
  for (int i = 0; i < 100; ++i) limits.sign_in(guess(i), "203.0.113.5", "", t, wrong);
  // Turns at t, t+1 s, ... t+10 s: each answer held until its turn (a wrong one at least 4 s).
  CHECK(limits.sign_in("s001", "203.0.113.5", "", t, right).delay_ms == 0);
  CHECK(limits.sign_in("s002", "203.0.113.5", "", t, right).delay_ms == 1000);
  CHECK(limits.sign_in("x", "203.0.113.5", "", t, wrong).delay_ms == 4000);
  for (int k = 3; k <= 10; ++k) CHECK(limits.sign_in("x", "203.0.113.5", "", t, wrong).delay_ms == std::max(4000, k * 1000));
  // The next would wait 11 s: refused at once, its code not asked.
  bool asked = false;
  const SignIn refused = limits.sign_in("s003", "203.0.113.5", "", t, [&] { return asked = true; });
  CHECK_FALSE(asked);
  CHECK(refused.status == 429);
  CHECK(refused.message == "too many failed sign-ins from your network; try again in 1 second");
  CHECK(refused.retry_after_seconds == 1);
  CHECK(refused.delay_ms == 0);
  // 5 s later the queue has moved on: turn t + 11 s, 6 s away.
  CHECK(limits.sign_in("s003", "203.0.113.5", "", t + 5000, right).delay_ms == 6000);
  // A browser that signed in as s004 before is not queued behind the flood.
  const std::string known = limits.known_browser_cookie("s004");
  CHECK(known.size() == 64);
  CHECK(known == SignInLimits(std::string(64, 'a')).known_browser_cookie("s004"));  // the same at the next start
  CHECK(known != limits.known_browser_cookie("s005"));
  const SignIn in = limits.sign_in("s004", "203.0.113.5", known, t, right);
  CHECK(in.ok);
  CHECK(in.delay_ms == 0);
  // s004's cookie is no pass for another id.
  CHECK(limits.sign_in("s005", "203.0.113.5", known, t, right).status == 429);
  // Another address is not held up.
  CHECK(limits.sign_in("s006", "203.0.113.6", "", t, right).delay_ms == 0);
}

TEST_CASE("limits: an IPv6 address is counted by its /64", "[limits]") {
  CHECK(attnmark::counted_address("2001:db8:1:2:aaaa:bbbb:cccc:dddd") == "2001:db8:1:2::/64");
  CHECK(attnmark::counted_address("::ffff:10.0.0.7") == "10.0.0.7");
  CHECK(attnmark::counted_address("10.0.0.7") == "10.0.0.7");
  CHECK(attnmark::counted_address("::1") == "::/64");
  SignInLimits limits(std::string(64, 'a'));
  for (int i = 0; i < 20; ++i) limits.sign_in(guess(i), "2001:db8::" + std::to_string(i + 1), "", 0, wrong);
  CHECK(limits.sign_in(guess(20), "2001:db8::ffff", "", 0, wrong).delay_ms == 250);
}

TEST_CASE("limits: the teacher sees slowed addresses and ids, and clears them", "[limits]") {
  SignInLimits limits(std::string(64, 'a'));
  const std::int64_t t = 5'000'000;
  for (int i = 0; i < 100; ++i) limits.sign_in(guess(i % 4), "203.0.113.5", "", t, wrong);  // 25 on each of 4 ids
  for (int i = 0; i < 6; ++i) limits.sign_in("s001", "10.0.0.7", "", t, wrong);
  limits.sign_in("s002", "10.0.0.8", "", t, wrong);  // one failure: slows no one
  const std::vector<attnmark::Slowed> slowed = limits.slowed(t + 60'000);
  REQUIRE(slowed.size() == 6);
  CHECK(slowed[0].kind == "address");
  CHECK(slowed[0].key == "203.0.113.5");
  CHECK(slowed[0].failures == 100);
  CHECK(slowed[0].queued);
  CHECK(slowed[0].seconds_left == 840);
  for (int i = 0; i < 4; ++i) {
    CHECK(slowed[1 + i].kind == "id");
    CHECK(slowed[1 + i].key == guess(i));
    CHECK(slowed[1 + i].failures == 25);
  }
  CHECK(slowed[5].key == "s001");  // by its pair: 6 from 10.0.0.7
  CHECK(slowed[5].failures == 6);
  CHECK_FALSE(slowed[5].queued);
  CHECK(limits.clear("address", "203.0.113.5"));
  CHECK_FALSE(limits.clear("address", "203.0.113.5"));
  CHECK(limits.sign_in("s001", "203.0.113.5", "", t, wrong).delay_ms == 0);  // free again, not queued
  CHECK(limits.clear("id", "s001"));
  CHECK(limits.sign_in("s001", "10.0.0.7", "", t, wrong).delay_ms == 0);
  CHECK(limits.slowed(t + SignInLimits::window_ms).empty());
}

TEST_CASE("limits: junk ids and addresses cannot grow the tables past their bound", "[limits]") {
  SignInLimits limits(std::string(64, 'a'));
  // One address queued, then 150,000 junk (address, id) pairs with one failure each.
  for (int i = 0; i < 100; ++i) limits.sign_in("x", "198.51.100.1", "", 0, wrong);
  for (int i = 0; i < 150000; ++i)
    limits.sign_in(guess(i), "10." + std::to_string(i / 65536) + "." + std::to_string(i / 256 % 256) + "." + std::to_string(i % 256), "", 1, wrong);
  // The queued address, past its allowance, was kept.
  const std::vector<attnmark::Slowed> slowed = limits.slowed(2);
  REQUIRE_FALSE(slowed.empty());
  CHECK(slowed[0].key == "198.51.100.1");
  CHECK(slowed[0].queued);
}

TEST_CASE("limits: what a student and the teacher are told of a check not kept", "[limits]") {
  const attnmark::ClassLimits caps;
  CHECK(attnmark::not_kept_notice(attnmark::Kept::student_full, caps) ==
        "Checked, not kept: your stored attempts have reached 2 MiB, this class's limit per student; your teacher can "
        "let you store more.");
  CHECK(attnmark::not_kept_notice(attnmark::Kept::database_full, caps) ==
        "Checked, not kept: the class's database has reached its limit of 1 GiB; your teacher has been told.");
  CHECK(attnmark::not_kept_header(attnmark::Kept::student_full, caps) ==
        "no (your stored attempts have reached the class's limit of 2 MiB)");
  CHECK(attnmark::not_kept_header(attnmark::Kept::database_full, caps) == "no (the class's database is full)");
  CHECK(attnmark::database_full_note(caps) ==
        "the database has reached its limit of 1 GiB (--db-max): checks are answered but no longer kept; start again "
        "with a larger --db-max to keep them");
}

TEST_CASE("limits: clear_limit clears each kind and says what it did", "[limits]") {
  const std::filesystem::path dir = scratch() / "limits-clear";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  attnmark::Store store((dir / "class.sqlite").string());
  CheckRate checks(1);
  SignInLimits sign_ins(std::string(64, 'a'));
  const attnmark::ClassLimits caps{1, 64 * attnmark::kibibyte, attnmark::gibibyte};
  const auto clear = [&](std::string_view kind, std::string_view key) {
    return attnmark::clear_limit(kind, key, checks, sign_ins, store, caps);
  };
  CHECK(clear("checks", "s001") == "nothing to clear for s001");
  checks.take("s001", 0);
  CHECK(clear("checks", "s001") == "s001 may check again at once");
  CHECK(clear("storage", "s001") == "nothing to clear for s001");
  store.add_attempt({0, "s001", "2026-12-01T08:00:00Z", "{}", 1, 2, "{}"});
  CHECK(clear("storage", "s001") == "s001 may store another 64 KiB");
  for (int i = 0; i < 21; ++i) sign_ins.sign_in(guess(i), "10.0.0.7", "", 0, wrong);
  CHECK(clear("address", "10.0.0.7") == "sign-ins from 10.0.0.7 are no longer slowed");
  sign_ins.sign_in("s001", "10.0.0.7", "", 0, wrong);
  CHECK(clear("id", "s001") == "sign-ins as s001 are no longer slowed");
  CHECK(clear("id", "s001") == "nothing to clear for s001");
  CHECK(clear("id", "a\nb") == "nothing to clear for a\\nb");
  try {
    clear("everything", "s001");
    FAIL("no error");
  } catch (const attnmark::Error& e) {
    CHECK(e.report() == "kind: expected checks, storage, address or id; got 'everything'");
  }
}
