package runner

import "encoding/json"

// maxSplitDepth bounds the nesting splitObject follows; deeper answers go
// to encoding/json (whose own bound is 10000).
const maxSplitDepth = 512

// splitObject is json.Unmarshal(raw, &obj) of an agent's answer in one
// pass over it instead of encoding/json's two (its validating scan, then
// its decoding scan): a JSON object whose keys need no \u escape, each
// member's value aliasing raw. ok is false for anything else, valid or
// not: encoding/json then decodes it, with its errors. When ok, raw is
// valid JSON and json.Unmarshal would decode it to the same members.
func splitObject(raw []byte) (obj map[string]json.RawMessage, ok bool) {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return nil, false
	}
	obj = make(map[string]json.RawMessage, 8)
	i = skipSpace(raw, i+1)
	if i < len(raw) && raw[i] == '}' {
		return obj, skipSpace(raw, i+1) == len(raw)
	}
	for {
		if i >= len(raw) || raw[i] != '"' {
			return nil, false
		}
		end, ok := scanString(raw, i)
		if !ok {
			return nil, false
		}
		key, ok := unquote(raw[i:end])
		if !ok {
			return nil, false
		}
		i = skipSpace(raw, end)
		if i >= len(raw) || raw[i] != ':' {
			return nil, false
		}
		i = skipSpace(raw, i+1)
		vend, ok := scanValue(raw, i, 1)
		if !ok {
			return nil, false
		}
		obj[key] = raw[i:vend:vend]
		i = skipSpace(raw, vend)
		switch {
		case i >= len(raw):
			return nil, false
		case raw[i] == ',':
			i = skipSpace(raw, i+1)
		case raw[i] == '}':
			if skipSpace(raw, i+1) != len(raw) {
				return nil, false
			}
			return obj, true
		default:
			return nil, false
		}
	}
}

// skipSpace is the index of the first byte of b from i that is not JSON
// white space.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// scanValue is the index just past the JSON value starting at b[i], and
// whether there is one, nested at most maxSplitDepth deep.
func scanValue(b []byte, i, depth int) (int, bool) {
	if i >= len(b) {
		return 0, false
	}
	switch c := b[i]; {
	case c == '"':
		return scanString(b, i)
	case c == '{' || c == '[':
		return scanContainer(b, i, depth)
	case c == 't':
		return literal(b, i, "true")
	case c == 'f':
		return literal(b, i, "false")
	case c == 'n':
		return literal(b, i, "null")
	case c == '-' || '0' <= c && c <= '9':
		return scanNumber(b, i)
	}
	return 0, false
}

// scanContainer scans the object or array starting at b[i].
func scanContainer(b []byte, i, depth int) (int, bool) {
	if depth >= maxSplitDepth {
		return 0, false
	}
	object := b[i] == '{'
	closing := byte(']')
	if object {
		closing = '}'
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == closing {
		return i + 1, true
	}
	for {
		if object {
			if i >= len(b) || b[i] != '"' {
				return 0, false
			}
			end, ok := scanString(b, i)
			if !ok {
				return 0, false
			}
			i = skipSpace(b, end)
			if i >= len(b) || b[i] != ':' {
				return 0, false
			}
			i = skipSpace(b, i+1)
		}
		end, ok := scanValue(b, i, depth+1)
		if !ok {
			return 0, false
		}
		i = skipSpace(b, end)
		switch {
		case i >= len(b):
			return 0, false
		case b[i] == ',':
			i = skipSpace(b, i+1)
		case b[i] == closing:
			return i + 1, true
		default:
			return 0, false
		}
	}
}

// scanString scans the JSON string starting at b[i], a quote: its escapes
// must be JSON's, and it holds no control character.
func scanString(b []byte, i int) (int, bool) {
	for j := i + 1; j < len(b); {
		switch c := b[j]; {
		case c == '"':
			return j + 1, true
		case c == '\\':
			if j+1 >= len(b) {
				return 0, false
			}
			switch b[j+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j += 2
			case 'u':
				if j+6 > len(b) || !isHex(b[j+2]) || !isHex(b[j+3]) || !isHex(b[j+4]) || !isHex(b[j+5]) {
					return 0, false
				}
				j += 6
			default:
				return 0, false
			}
		case c < 0x20:
			return 0, false
		default:
			j++
		}
	}
	return 0, false
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// literal scans the literal word at b[i].
func literal(b []byte, i int, word string) (int, bool) {
	if len(b)-i < len(word) || string(b[i:i+len(word)]) != word {
		return 0, false
	}
	return i + len(word), true
}

// scanNumber scans a JSON number at b[i]: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func scanNumber(b []byte, i int) (int, bool) {
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		i = digits(b, i)
	default:
		return 0, false
	}
	if i < len(b) && b[i] == '.' {
		j := digits(b, i+1)
		if j == i+1 {
			return 0, false
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(b, i)
		if j == i {
			return 0, false
		}
		i = j
	}
	return i, true
}

// digits is the index past the run of decimal digits at b[i].
func digits(b []byte, i int) int {
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	return i
}
