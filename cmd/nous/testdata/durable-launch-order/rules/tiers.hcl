# Source tier table (research-loop document): 1 official, 2 mainstream news,
# 3 digital media, 5 social. Sources not listed have tier 0 (unknown).

tier "中央社" {
  tier = 1
  type = "official"
}
tier "公視" {
  tier = 1
  type = "official"
}
tier "行政院" {
  tier = 1
  type = "government"
}
tier "聯合報" {
  tier = 2
  type = "news"
}
tier "經濟日報" {
  tier = 2
  type = "news"
}
tier "自由時報" {
  tier = 2
  type = "news"
}
tier "報導者" {
  tier = 3
  type = "digital"
}
tier "關鍵評論網" {
  tier = 3
  type = "digital"
}
tier "PTT" {
  tier = 5
  type = "social"
}
tier "Dcard" {
  tier = 5
  type = "social"
}

# The project's own systems of record: commits from GitLab or the local git
# repository, issues, pull requests, releases and CI runs from GitHub or
# GitLab, issues from YouTrack or the offline issues file, its own
# documentation (see sources.hcl). They are first-hand, so strict mode keeps them and discovery
# mode does not flag them.
tier "git" {
  tier = 1
  type = "structured"
}
tier "gitlab" {
  tier = 1
  type = "structured"
}
tier "github" {
  tier = 1
  type = "structured"
}
tier "youtrack" {
  tier = 1
  type = "structured"
}
tier "issues" {
  tier = 1
  type = "structured"
}
tier "docs" {
  tier = 1
  type = "structured"
}
