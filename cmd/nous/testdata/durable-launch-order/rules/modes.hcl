# Source-tier modes (research-loop document). The first mode whose `when`
# holds for the question is used; none holding, nous.default_mode.

# Only official and mainstream sources (tiers 1–2); unknown sources dropped;
# nothing left is the "no valid sources" error.
mode "strict" {
  when     = "query matches '(?i)\\\\b(?:verify|is it true|official sources?)\\\\b|fact.?check'"
  keep     = "item.tier >= 1 && item.tier <= 2"
  on_empty = "error"
}

# Tier 1 against tier 5 side by side.
mode "monitor" {
  when    = "query matches '(?i)\\\\b(?:monitor(?:ing)?|compare (?:the )?sources|sentiment)\\\\b'"
  compare = [1, 5]
}

# Everything kept; unknown and low-tier (3 and above) sources flagged.
mode "discovery" {
  warn = "item.tier == 0 || item.tier >= 3"
}
