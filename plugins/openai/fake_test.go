package openai

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/nous-dev/nous/plugins/internal/plugintest"
)

// fakeOpenAI is a local chat-completions server that answers in the shapes
// the OpenAI API reference documents, records every request, and plays a
// script of replies (the last one repeats).
type fakeOpenAI struct {
	t   testing.TB
	srv *httptest.Server

	mu     sync.Mutex
	calls  []fakeCall
	script []fakeReply
	// respond, when set, answers instead of the script.
	respond func(chatRequest) fakeReply
}

type fakeCall struct {
	header http.Header
	body   map[string]any
	req    chatRequest
}

// fakeReply is one scripted answer.
type fakeReply struct {
	status int
	header map[string]string
	body   string   // the whole body of a non-streamed answer or an error
	events []string // data payloads of a streamed answer
	noDone bool     // stop the stream without "data: [DONE]"
	// echoAuth puts the request's Authorization header into an error body,
	// as a badly behaved proxy might.
	echoAuth bool
	delay    time.Duration
}

func newFake(t testing.TB, script ...fakeReply) *fakeOpenAI {
	f := &fakeOpenAI{t: t, script: script}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeOpenAI) baseURL() string { return f.srv.URL + "/v1" }

func (f *fakeOpenAI) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprintf(w, `{"error":{"message":"Invalid URL (%s %s)","type":"invalid_request_error","param":null,"code":null}}`, r.Method, r.URL.Path)
		return
	}
	raw, _ := io.ReadAll(r.Body)
	var call fakeCall
	call.header = r.Header.Clone()
	if r.Header.Get("Content-Type") != "application/json" || json.Unmarshal(raw, &call.body) != nil || json.Unmarshal(raw, &call.req) != nil {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"error":{"message":"We could not parse the JSON body of your request.","type":"invalid_request_error","param":null,"code":null}}`)
		return
	}
	f.mu.Lock()
	f.calls = append(f.calls, call)
	reply := fakeReply{}
	if f.respond != nil {
		reply = f.respond(call.req)
	} else if len(f.script) > 0 {
		reply = f.script[0]
		if len(f.script) > 1 {
			f.script = f.script[1:]
		}
	}
	f.mu.Unlock()

	if reply.delay > 0 {
		select {
		case <-time.After(reply.delay):
		case <-r.Context().Done():
			return
		}
	}
	for k, v := range reply.header {
		w.Header().Set(k, v)
	}
	status := reply.status
	if status == 0 {
		status = http.StatusOK
	}
	body := reply.body
	if reply.echoAuth {
		body = fmt.Sprintf(`{"error":{"message":"Incorrect API key provided: %s. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`, r.Header.Get("Authorization"))
	}
	if status == http.StatusOK && reply.events != nil {
		w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
		w.WriteHeader(status)
		fl := w.(http.Flusher)
		for _, ev := range reply.events {
			fmt.Fprintf(w, "data: %s\n\n", ev)
			fl.Flush()
		}
		if !reply.noDone {
			fmt.Fprint(w, "data: [DONE]\n\n")
		}
		return
	}
	if status == http.StatusOK && body == "" {
		body = completionBody("gpt-4o-mini-2024-07-18", `{"status":"PASS"}`, "stop", 19, 10)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	fmt.Fprint(w, body)
}

func (f *fakeOpenAI) requests() []fakeCall {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]fakeCall(nil), f.calls...)
}

// completionBody is a chat.completion object as the API returns it.
func completionBody(model, content, finish string, promptTokens, completionTokens int) string {
	c, _ := json.Marshal(content)
	return fmt.Sprintf(`{
  "id": "chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT",
  "object": "chat.completion",
  "created": 1741569952,
  "model": %q,
  "choices": [
    {
      "index": 0,
      "message": {"role": "assistant", "content": %s, "refusal": null, "annotations": []},
      "logprobs": null,
      "finish_reason": %q
    }
  ],
  "usage": {
    "prompt_tokens": %d,
    "completion_tokens": %d,
    "total_tokens": %d,
    "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
    "completion_tokens_details": {"reasoning_tokens": 0, "audio_tokens": 0, "accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0}
  },
  "service_tier": "default",
  "system_fingerprint": "fp_06737a9306"
}`, model, c, finish, promptTokens, completionTokens, promptTokens+completionTokens)
}

// streamEvents are the chat.completion.chunk payloads of content split into
// pieces: a role chunk, content chunks, a finish chunk and, with usage, the
// usage-only chunk stream_options.include_usage asks for.
func streamEvents(model string, pieces []string, finish string, withUsage bool, promptTokens, completionTokens int) []string {
	head := `"id":"chatcmpl-123","object":"chat.completion.chunk","created":1694268190,"model":"` + model + `","system_fingerprint":"fp_44709d6fcb"`
	usageNull := ``
	if withUsage {
		usageNull = `,"usage":null`
	}
	events := []string{`{` + head + `,"choices":[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}]` + usageNull + `}`}
	for _, p := range pieces {
		c, _ := json.Marshal(p)
		events = append(events, `{`+head+`,"choices":[{"index":0,"delta":{"content":`+string(c)+`},"logprobs":null,"finish_reason":null}]`+usageNull+`}`)
	}
	if finish != "" {
		events = append(events, `{`+head+`,"choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"`+finish+`"}]`+usageNull+`}`)
	}
	if withUsage {
		events = append(events, fmt.Sprintf(`{%s,"choices":[],"usage":{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d}}`,
			head, promptTokens, completionTokens, promptTokens+completionTokens))
	}
	return events
}

// split cuts s into pieces of n runes, as a model streams tokens (a JSON
// string in a chunk can never hold half a character).
func split(s string, n int) []string {
	var out []string
	r := []rune(s)
	for len(r) > n {
		out = append(out, string(r[:n]))
		r = r[n:]
	}
	return append(out, string(r))
}

func apiErrorBody(message, typ, param, code string) string {
	p, c := "null", "null"
	if param != "" {
		p = fmt.Sprintf("%q", param)
	}
	if code != "" {
		c = fmt.Sprintf("%q", code)
	}
	return fmt.Sprintf(`{"error":{"message":%q,"type":%q,"param":%s,"code":%s}}`, message, typ, p, c)
}

// testAgent is an agent configured for the fake, with retry waits recorded
// instead of slept.
type testAgent struct {
	*Agent
	waits  plugintest.Waits
	apiKey string
	logs   plugintest.Buffer
}

func newTestAgent(t testing.TB, f *fakeOpenAI, config string) *testAgent {
	t.Helper()
	ta := &testAgent{apiKey: "sk-test-SECRET-0123456789abcdef"}
	env := map[string]string{"OPENAI_API_KEY": ta.apiKey, "OPENAI_BASE_URL": f.baseURL()}
	ta.Agent = New(WithEnv(func(k string) string { return env[k] }), WithLogger(slog.New(slog.NewTextHandler(&ta.logs, nil))))
	ta.sleep = ta.waits.Sleep
	ta.rand = func() float64 { return 0.5 }
	if config != "" {
		diags, err := ta.Configure(t.Context(), json.RawMessage(config))
		if err != nil || diags.HasErrors() {
			t.Fatalf("configure %s: %v %+v", config, err, diags)
		}
	}
	return ta
}
