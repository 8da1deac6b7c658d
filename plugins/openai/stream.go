package openai

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// maxEventBytes bounds one server-sent event; a chunk is a few hundred bytes.
const maxEventBytes = 4 << 20

// errTruncated is a stream that ended before the answer did.
var errTruncated = errors.New("stream ended before the answer was complete")

// readStream reassembles a streamed chat completion from server-sent
// events: "data: {chunk}" lines, events separated by blank lines, comments
// (":") and other fields ignored, "data: [DONE]" at the end. A stream that
// stops without [DONE] and without a finish_reason is truncated.
func readStream(r io.Reader) (completion, error) {
	var (
		c        completion
		content  strings.Builder
		refusal  strings.Builder
		data     bytes.Buffer
		chunks   int
		finished bool
	)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxEventBytes)
	dispatch := func() (done bool, err error) {
		if data.Len() == 0 {
			return false, nil
		}
		payload := bytes.TrimSpace(data.Bytes())
		defer data.Reset()
		if string(payload) == "[DONE]" {
			return true, nil
		}
		var ch chatChunk
		if err := json.Unmarshal(payload, &ch); err != nil {
			return false, fmt.Errorf("event %d is not a chat.completion.chunk: %w", chunks+1, err)
		}
		if ch.Error != nil {
			return false, &statusError{status: 200, api: ch.Error}
		}
		chunks++
		if ch.Model != "" {
			c.model = ch.Model
		}
		if ch.Usage != nil {
			c.usage = *ch.Usage
		}
		for _, choice := range ch.Choices {
			if choice.Index != 0 {
				continue
			}
			if choice.Delta.Content != nil {
				content.WriteString(*choice.Delta.Content)
			}
			if choice.Delta.Refusal != nil {
				refusal.WriteString(*choice.Delta.Refusal)
			}
			if choice.FinishReason != nil && *choice.FinishReason != "" {
				c.finishReason = *choice.FinishReason
				finished = true
			}
		}
		return false, nil
	}
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 {
			done, err := dispatch()
			if err != nil || done {
				return finish(c, &content, &refusal), err
			}
			continue
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		if string(field) != "data" {
			continue // a comment (": keep-alive"), event:, id: or retry:
		}
		value = bytes.TrimPrefix(value, []byte(" "))
		if data.Len() > 0 {
			data.WriteByte('\n')
		}
		data.Write(value)
		if data.Len() > maxEventBytes {
			return completion{}, fmt.Errorf("event %d is larger than %d bytes", chunks+1, maxEventBytes)
		}
	}
	if err := sc.Err(); err != nil {
		return finish(c, &content, &refusal), fmt.Errorf("reading the stream after %d chunks: %w", chunks, err)
	}
	// EOF: an event not followed by a blank line still counts.
	done, err := dispatch()
	if err != nil {
		return finish(c, &content, &refusal), err
	}
	if !done && !finished {
		return finish(c, &content, &refusal), fmt.Errorf("%w: %d chunks and %d bytes of content, no finish_reason and no [DONE]", errTruncated, chunks, content.Len())
	}
	return finish(c, &content, &refusal), nil
}

func finish(c completion, content, refusal *strings.Builder) completion {
	c.content = content.String()
	c.refusal = refusal.String()
	return c
}
