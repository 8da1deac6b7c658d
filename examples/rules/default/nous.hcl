# Settings of the default rules: the 0.3 confidence threshold of the source
# documents, discovery as the mode when no mode rule matches the question, and
# the template used for intent types the rules do not know.
nous {
  version        = 1
  min_confidence = 0.3
  default_mode   = "discovery"
  fallback       = "fallback"
}
