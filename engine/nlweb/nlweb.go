// Package nlweb answers NLWeb's /ask on `nous serve`: the question, the
// conversation's earlier questions (prev) and the site as the NLWeb REST
// API takes them, the answer as the NLWeb Items `nous ask --format nlweb`
// prints, whole (streaming=false) or as a stream of NLWeb messages.
package nlweb

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/nous-dev/nous/engine/report"
	"github.com/nous-dev/nous/engine/server"
)

// Asker runs a question: *server.Server.
type Asker interface {
	Ask(ctx context.Context, req server.AskRequest, watch server.Watch) (server.Answer, error)
}

// Generate modes of the protocol: list returns the Items, summarize adds
// a summary, generate an answer with the Items it rests on. nous always
// writes its report: it is the summary and the answer.
const (
	modeList      = "list"
	modeSummarize = "summarize"
	modeGenerate  = "generate"
)

// query is one NLWeb request.
type query struct {
	Text      string
	Prev      []string
	Site      string
	Streaming bool
	ID        string
	Mode      string
}

// Handler answers /ask (GET with the parameters in the URL; POST with
// them as a form or a JSON object) with a.
func Handler(a Asker) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q, err := parse(r)
		if err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
			return
		}
		if q.Streaming {
			stream(w, r, a, q)
			return
		}
		answer(w, r, a, q)
	})
}

// answer is the non-streaming response: one JSON object.
func answer(w http.ResponseWriter, r *http.Request, a Asker, q query) {
	ans, err := a.Ask(r.Context(), askRequest(q), server.Watch{})
	if err != nil {
		code, msg := refused(err)
		writeJSON(w, code, map[string]string{"error": msg})
		return
	}
	out := response{QueryID: cmp.Or(q.ID, ans.Run.ID)}
	items, err := resultItems(ans)
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, map[string]string{"query_id": out.QueryID, "error": err.Error()})
		return
	}
	out.Results = items
	report := reportText(ans)
	switch q.Mode {
	case modeSummarize:
		out.Summary = report
	case modeGenerate:
		out.Answer = report
	}
	w.Header().Set("Nous-Run-Id", ans.Run.ID)
	writeJSON(w, http.StatusOK, out)
}

// response is the non-streaming answer.
type response struct {
	QueryID string            `json:"query_id"`
	Results []json.RawMessage `json:"results"`
	Summary string            `json:"summary,omitempty"`
	Answer  string            `json:"answer,omitempty"`
}

// askRequest is q as the service takes it: the Items format, and the
// decontextualized question when the client gave one.
func askRequest(q query) server.AskRequest {
	return server.AskRequest{Query: q.Text, Format: "nlweb", Prev: q.Prev}
}

// resultItems are the Items of a run, or why there are none.
func resultItems(ans server.Answer) ([]json.RawMessage, error) {
	if ans.Output == nil {
		return nil, errors.New(cmp.Or(ans.Run.Error, "the question did not run"))
	}
	var items []json.RawMessage
	if err := json.Unmarshal(ans.Output, &items); err != nil {
		return nil, fmt.Errorf("reading the run's Items: %w", err)
	}
	return items, nil
}

// reportText is the run's report: the first Item's description.
func reportText(ans server.Answer) string {
	if ans.Result == nil {
		return ""
	}
	return ans.Result.Report
}

// refused is the status and message of a question the service did not start.
func refused(err error) (int, string) {
	var re *server.RequestError
	switch {
	case errors.As(err, &re):
		return http.StatusBadRequest, re.Error()
	case errors.Is(err, server.ErrBusy):
		return http.StatusTooManyRequests, err.Error()
	case errors.Is(err, server.ErrDraining):
		return http.StatusServiceUnavailable, err.Error()
	}
	return http.StatusInternalServerError, err.Error()
}

// parse reads the request's parameters: from the URL, and from a form or
// JSON body on POST.
func parse(r *http.Request) (query, error) {
	params := r.URL.Query()
	if r.Method == http.MethodPost {
		body, err := bodyParams(r)
		if err != nil {
			return query{}, err
		}
		for k, vs := range body {
			params[k] = vs
		}
	}
	q := query{Text: strings.TrimSpace(params.Get("query")), Site: strings.TrimSpace(params.Get("site")),
		ID: params.Get("query_id"), Streaming: true}
	if d := strings.TrimSpace(params.Get("decontextualized_query")); d != "" {
		// The client did the decontextualizing: the question stands alone.
		q.Text, q.Prev = d, nil
	} else {
		q.Prev = splitPrev(params["prev"])
	}
	if q.Text == "" {
		return q, errors.New("query: the question is empty")
	}
	if !servedSite(q.Site) {
		return q, fmt.Errorf("site %q: this server answers for %q (or all)", q.Site, report.ItemSite)
	}
	if s := params.Get("streaming"); s != "" {
		switch strings.ToLower(s) {
		case "0", "false", "no":
			q.Streaming = false
		case "1", "true", "yes":
		default:
			return q, fmt.Errorf("streaming %q: want true or false", s)
		}
	}
	q.Mode = strings.ToLower(cmp.Or(params.Get("generate_mode"), params.Get("mode"), modeList))
	if !slices.Contains([]string{modeList, modeSummarize, modeGenerate}, q.Mode) {
		return q, fmt.Errorf("mode %q: want list, summarize or generate", q.Mode)
	}
	return q, nil
}

// bodyParams reads a POST body: a form, or a JSON object whose values
// are strings, booleans or (prev) lists of strings.
func bodyParams(r *http.Request) (url.Values, error) {
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct != "application/json" {
		if err := r.ParseForm(); err != nil {
			return nil, fmt.Errorf("request body: %w", err)
		}
		return r.PostForm, nil
	}
	var obj map[string]any
	dec := json.NewDecoder(r.Body)
	if err := dec.Decode(&obj); err != nil {
		return nil, fmt.Errorf("request body: %w", err)
	}
	out := url.Values{}
	for k, v := range obj {
		switch v := v.(type) {
		case string:
			out.Set(k, v)
		case bool:
			out.Set(k, fmt.Sprint(v))
		case []any:
			for i, e := range v {
				s, ok := e.(string)
				if !ok {
					return nil, fmt.Errorf("request body: %s[%d]: want a string", k, i)
				}
				out.Add(k, s)
			}
		case nil:
		default:
			return nil, fmt.Errorf("request body: %s: want a string", k)
		}
	}
	return out, nil
}

// splitPrev reads prev: repeated parameters, a JSON list of strings, or
// the protocol's comma-separated list.
func splitPrev(values []string) []string {
	var out []string
	for _, v := range values {
		var list []string
		if strings.HasPrefix(strings.TrimSpace(v), "[") && json.Unmarshal([]byte(v), &list) == nil {
			out = append(out, list...)
			continue
		}
		out = append(out, strings.Split(v, ",")...)
	}
	return out
}

// servedSite reports whether site names what this server answers for:
// nothing, all, or the site its Items name.
func servedSite(site string) bool {
	switch strings.ToLower(site) {
	case "", "all", strings.ToLower(report.ItemSite), report.ItemSiteURL, strings.TrimPrefix(report.ItemSiteURL, "https://"):
		return true
	}
	return false
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v) // the client went away: nothing to tell it
}
