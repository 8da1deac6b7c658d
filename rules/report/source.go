package report

import "bytes"

// SourceLine returns the 1-based line n of src without its line ending, or
// nil when src has no such line; snippets and suppression comments use it.
func SourceLine(src []byte, n int) []byte {
	if n < 1 {
		return nil
	}
	for i := 1; i < n; i++ {
		nl := bytes.IndexByte(src, '\n')
		if nl < 0 {
			return nil
		}
		src = src[nl+1:]
	}
	if nl := bytes.IndexByte(src, '\n'); nl >= 0 {
		src = src[:nl]
	}
	return bytes.TrimRight(src, "\r")
}
