#include "writers/report_words.h"

#include "base/text.h"
#include "attnmark/lesson/numbers.h"

namespace attnmark {

const VerdictLook& verdict_look(Verdict verdict) {
  static constexpr VerdictLook correct{"✓", "right", "right", "right", "good"};
  static constexpr VerdictLook carried{"✓*", "right for your earlier answers",
                                       "right for your earlier answers (follow-through)",
                                       "right for your earlier answers", "good"};
  static constexpr VerdictLook imprecise{"≈", "too few decimals", "right but not to the decimals asked",
                                         "too few decimals", "warn"};
  static constexpr VerdictLook wrong{"✗", "wrong", "wrong", "wrong", "bad"};
  static constexpr VerdictLook unanswered{"·", "blank", "blank", "blank", "muted"};
  static constexpr VerdictLook unreadable{"?", "could not be read", "could not be read", "unreadable", "bad"};
  switch (verdict) {
    case Verdict::correct: return correct;
    case Verdict::carried: return carried;
    case Verdict::imprecise: return imprecise;
    case Verdict::wrong: return wrong;
    case Verdict::unanswered: return unanswered;
    case Verdict::unreadable: return unreadable;
  }
  return unreadable;
}

std::string verdict_legend(LegendStyle style) {
  std::string out;
  for (Verdict v : {Verdict::correct, Verdict::carried, Verdict::imprecise, Verdict::wrong, Verdict::unanswered,
                    Verdict::unreadable}) {
    const VerdictLook& look = verdict_look(v);
    if (!out.empty()) out += style == LegendStyle::explained ? " · " : "  ";
    out += look.symbol;
    out += ' ';
    out += style == LegendStyle::explained ? look.explained : look.terse;
  }
  return out;
}

std::string bounded_reason(std::string_view reason, std::size_t max_bytes) {
  std::string text = printable(reason, std::string::npos);
  if (text.size() <= max_bytes) return text;
  constexpr std::string_view separator = "; ";
  // The tail is at most " … (and 18,446,744,073,709,551,615 more notes)".
  constexpr std::size_t tail_room = 60;
  const std::size_t room = max_bytes > tail_room ? max_bytes - tail_room : 0;
  std::size_t cut = text.rfind(separator, room);
  if (cut == std::string::npos || cut < room / 2) {
    cut = room;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  }
  std::size_t more = 1;
  for (std::size_t at = text.find(separator, cut + 1); at != std::string::npos; at = text.find(separator, at + 1)) ++more;
  text.resize(cut);
  text += " … (and " + grouped(more) + (more == 1 ? " more note)" : " more notes)");
  return text;
}

std::vector<std::string> shown_notes(const std::vector<std::string>& notes) {
  if (notes.size() <= max_notes_shown) return notes;
  std::vector<std::string> shown(notes.begin(), notes.begin() + max_notes_shown);
  shown.push_back("and " + grouped(notes.size() - max_notes_shown) + " more notes");
  return shown;
}

std::string score_text(double score) {
  std::string text;
  append_score_text(text, score);
  return text;
}

void append_score_text(std::string& out, double score) {
  append_fixed(out, score, 2);  // always holds a '.', where the trimming stops
  while (out.back() == '0') out.pop_back();
  if (out.back() == '.') out.pop_back();
}

const char* status_class(SubmissionStatus status) {
  switch (status) {
    case SubmissionStatus::graded: return "";
    case SubmissionStatus::missing:
    case SubmissionStatus::unreadable:
    case SubmissionStatus::wrong_rubric: return " class=\"bad\"";
    default: return " class=\"warn\"";
  }
}

std::string report_css() {
  return R"(.stats{display:flex;flex-wrap:wrap;gap:.6em;margin:.6em 0}
.stat{flex:1 1 7em;background:var(--panel);border:var(--line) solid var(--rule);border-radius:4px;padding:.35em .6em}
.stat b{display:block;font-size:1.35em;color:var(--heading)}
.stat span{color:var(--muted);font-size:.85em}
figure{margin:.4em 0 1em;break-inside:avoid}
figcaption{color:var(--muted);font-size:.85em}
.chart text{fill:var(--text);font-family:inherit}
.chart .axis{stroke:var(--rule)}
.chart .bar{fill:var(--bar)}
.meter{display:flex;align-items:center;gap:.5em}
.meter .track{flex:1;height:.9em;background:var(--panel);border:var(--line) solid var(--rule);border-radius:3px;overflow:hidden}
.meter .fill{height:100%;background:var(--bar)}
.meter .pct{min-width:3.2em;text-align:right}
td.good,span.good{color:var(--good)}
td.bad,span.bad{color:var(--bad)}
td.warn,span.warn{color:var(--warn)}
td.muted{color:var(--muted)}
.score-big{font-size:1.6em;font-weight:bold;color:var(--heading)}
.legend{font-size:.9em}
.follow{color:var(--good);font-size:.85em;font-weight:normal}
ul{margin:.3em 0 .6em;padding-left:1.3em}
section.qfb{break-inside:auto}
.part-fb{break-inside:avoid}
h3 .marks{font-weight:normal;color:var(--muted);font-size:.85em}
)";
}

}  // namespace attnmark
