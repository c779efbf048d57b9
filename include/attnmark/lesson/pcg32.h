// attnmark/lesson/pcg32.h: the PCG32 random generator (pcg32_random_r, O'Neill 2014).
//
// Specified to the bit, so a seed gives the same numbers on every platform
// for ever; <random>'s distributions give no such promise.
//
//   Pcg32 rng(42, 54);
//   rng.next();        // 0xa15c02b7
//   rng.below(6);      // a whole number in [0, 6), exactly uniform
#pragma once

#include <cstdint>

namespace attnmark {

// A PCG32 generator: 64-bit LCG state, 32-bit XSH-RR output.
class Pcg32 {
 public:
  // pcg32_srandom_r(initstate, initseq).
  Pcg32(std::uint64_t initstate, std::uint64_t initseq) {
    inc_ = (initseq << 1u) | 1u;
    next();
    state_ += initstate;
    next();
  }

  // The next 32 random bits.
  std::uint32_t next() {
    const std::uint64_t old = state_;
    state_ = old * 6364136223846793005ULL + inc_;
    const auto xorshifted = static_cast<std::uint32_t>(((old >> 18u) ^ old) >> 27u);
    const auto rot = static_cast<std::uint32_t>(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((-rot) & 31u));
  }

  // A uniform whole number in [0, bound) by rejection (pcg32_boundedrand_r).
  // REQUIRES: 0 < bound.
  std::uint32_t below(std::uint32_t bound) {
    const std::uint32_t threshold = static_cast<std::uint32_t>(-bound) % bound;
    for (;;) {
      const std::uint32_t r = next();
      if (r >= threshold) return r % bound;
    }
  }

 private:
  std::uint64_t state_ = 0;
  std::uint64_t inc_ = 0;
};

}  // namespace attnmark
