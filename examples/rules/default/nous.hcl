nous {
  version = 1
}
