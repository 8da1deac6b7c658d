intent "syntax" {
  pattern =
}
