# Settings of the default rules: the 0.3 confidence threshold of the source
# documents, discovery as the mode when no mode rule matches the question, and
# the template used for intent types the rules do not know. Two conflicting
# intents detected within clarify_margin of each other are asked back: the
# detect rules' confidences are steps of 0.05, so adjacent steps are a toss-up.
nous {
  version        = 1
  min_confidence = 0.3
  clarify_margin = 0.05
  default_mode   = "discovery"
  fallback       = "fallback"
}
