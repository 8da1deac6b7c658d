package plugin

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// maxLine bounds how much of one line is kept; the rest is counted, not
// kept.
const maxLine = 64 << 10

// readLines reads r line by line until EOF or a read error, handing fn each
// line's first maxLine bytes (without the newline or a trailing \r) and the
// line's full length. Memory stays bounded however long a line is.
func readLines(r io.Reader, fn func(line []byte, size int)) {
	br := bufio.NewReaderSize(r, 4096)
	var buf []byte
	size := 0
	for {
		chunk, err := br.ReadSlice('\n')
		complete := err == nil // chunk ends with the newline
		if complete {
			chunk = chunk[:len(chunk)-1]
		}
		size += len(chunk)
		if room := maxLine - len(buf); room > 0 {
			buf = append(buf, chunk[:min(len(chunk), room)]...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if complete || size > 0 {
			line := buf
			if size == len(buf) {
				line = bytes.TrimSuffix(line, []byte("\r"))
				size = len(line)
			}
			fn(line, size)
			buf, size = buf[:0], 0
		}
		if err != nil {
			return
		}
	}
}
