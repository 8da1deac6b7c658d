# Documentation (request_help): the local repository's own, one record per
# section (heading, text, path, line) of its README, CONTRIBUTING and
# top-level text files and of the files under docs/, doc/, Documentation/,
# guide/ and the documentation sites site/ and website/; bounded to 300 files and 8 MiB. A repository without any
# leaves help questions partial, saying so.
source "docs" {
  plugin = "builtin:file"
  kind   = "document"
  config = {
    path      = "."
    format    = "markdown"
    source    = "docs"
    include   = ["*", "docs/**", "doc/**", "Documentation/**", "guide/**", "site/**", "website/**", "**/README*"]
    max_files = 300
    max_bytes = 8388608
  }
}
