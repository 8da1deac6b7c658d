package server_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/nous-dev/nous/engine/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chromium is the browser the viewer tests drive: $NOUS_CHROMIUM, else
// Debian's chromium or another Chrome on the PATH.
func chromium() string {
	if p := os.Getenv("NOUS_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// browser starts a headless chromium with a fresh profile for the test.
func browser(t testing.TB) context.Context {
	t.Helper()
	path := chromium()
	if path == "" {
		t.Skip("no chromium: install it (apt-get install chromium; .ci/run does) or set NOUS_CHROMIUM to a Chrome binary")
	}
	alloc, cancel := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 1000),
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true))
	t.Cleanup(cancel)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(cancel)
	ctx, cancel = context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// artifact is where the test saves name: $NOUS_ARTIFACTS when set (CI
// keeps it), else the test's temporary directory.
func artifact(t *testing.T, name string) string {
	dir := os.Getenv("NOUS_ARTIFACTS")
	if dir == "" {
		dir = t.TempDir()
	}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	return filepath.Join(dir, name)
}

// ended waits until the page's status is a run's final word.
func ended() chromedp.Action[chromedp.Void] {
	return chromedp.Poll[chromedp.Void](`(s => s && !['planning', 'running', 'loading'].includes(s))`+
		`(document.getElementById('status').dataset.state)`, chromedp.WithPollingInterval(50*time.Millisecond))
}

// do runs steps in the page, failing the test on an error.
func do(t testing.TB, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	require.NoError(t, chromedp.Do(ctx, steps...))
}

// get runs one action in the page and returns its value.
func get[T any](t testing.TB, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	require.NoError(t, err)
	return v
}

// js evaluates expression in the page.
func js[T any](t testing.TB, ctx context.Context, expression string) T {
	t.Helper()
	return get(t, ctx, chromedp.Evaluate[T](expression))
}

// TestViewerAsks drives the run viewer in headless chromium: it asks a
// question, waits for the report and checks what the page shows.
func TestViewerAsks(t *testing.T) {
	ctx := browser(t)
	s := start(t, newFixtures(t), server.Config{})

	do(t, ctx, chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(`#query`),
		chromedp.Poll[chromedp.Void](`performance.getEntriesByName('first-contentful-paint').length > 0`))
	paint := js[float64](t, ctx, `performance.getEntriesByName('first-contentful-paint')[0].startTime`)
	loaded := js[float64](t, ctx, `performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd`)
	t.Logf("first contentful paint %.1f ms, DOMContentLoaded %.1f ms (headless chromium, loopback)", paint, loaded)

	do(t, ctx, chromedp.SendKeys(`#query`, question), chromedp.Click(`#ask-button`), ended(),
		chromedp.Poll[chromedp.Void](`document.querySelectorAll('#runs button').length > 0`))
	report := get(t, ctx, chromedp.Text(`#report`))
	graph := js[string](t, ctx, `document.getElementById('graph').textContent`)
	assert.Contains(t, get(t, ctx, chromedp.Text(`#status`)), "success")
	assert.GreaterOrEqual(t, js[int](t, ctx, `document.querySelectorAll('#graph g.node').length`), 2, "the plan's steps are drawn")
	assert.GreaterOrEqual(t, js[int](t, ctx, `document.querySelectorAll('#graph path.edge').length`), 1, "with their dependencies")
	assert.Contains(t, graph, "h0", "steps are named")
	assert.Contains(t, graph, "youtrack", "a retrieval step shows its sources")
	assert.Contains(t, graph, "completed", "steps show how they ended")
	assert.Contains(t, report, "issue")
	href := get(t, ctx, chromedp.AttributeValue(`#evidence a`, "href"))
	assert.True(t, strings.HasPrefix(href.Value, "https://youtrack.example.com/issue/"), "a record links to its URL: %q", href.Value)
	assert.NotEmpty(t, get(t, ctx, chromedp.Text(`#evidence a`)))
	assert.Positive(t, js[int](t, ctx, `document.querySelectorAll('#trace > li').length`), "the reasoning trace is shown")
	assert.Positive(t, js[int](t, ctx, `document.querySelectorAll('#progress > li').length`), "the run's events are shown")
	assert.Equal(t, 1, js[int](t, ctx, `document.querySelectorAll('#runs button').length`), "the run is listed")

	do(t, ctx, chromedp.Focus(`#graph g.node[data-step="h0"]`), chromedp.KeyEvent("\r"))
	step := get(t, ctx, chromedp.Text(`#step`))
	assert.Contains(t, step, "Retrieval", "a step opens from the keyboard with its retrieval plan")
	assert.Contains(t, step, "completed")

	shot := artifact(t, "viewer.png")
	require.NoError(t, os.WriteFile(shot, get(t, ctx, chromedp.FullScreenshot(100)), 0o644))
	t.Logf("screenshot: %s", shot)

	t.Run("a stored run opens from the list", func(t *testing.T) {
		do(t, ctx, chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(`#runs button`), chromedp.Click(`#runs button`), ended())
		assert.Equal(t, report, get(t, ctx, chromedp.Text(`#report`)))
	})
}

// TestViewerToken checks the page of a server that wants a token: it asks
// for it, keeps it in sessionStorage only, and shows what a hostile
// question echoes as text.
func TestViewerToken(t *testing.T) {
	ctx := browser(t)
	s := start(t, newFixtures(t), server.Config{Token: "s3cret"})
	do(t, ctx, chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(`#token-dialog[open] #token`),
		chromedp.SendKeys(`#token`, "s3cret"), chromedp.Click(`#token-dialog button[value="save"]`),
		chromedp.WaitVisible(`#runs li`))
	assert.Equal(t, "s3cret", js[string](t, ctx, `sessionStorage.getItem('nous.token')`))
	assert.Equal(t, "{}", js[string](t, ctx, `JSON.stringify(localStorage)`), "the token is kept for the tab only")

	do(t, ctx, chromedp.SendKeys(`#query`, `<img src=x id=pwned> how many open issues are there?`),
		chromedp.Click(`#ask-button`), ended(),
		chromedp.Poll[chromedp.Void](`document.getElementById('runs').textContent.includes('<img')`))
	assert.Contains(t, get(t, ctx, chromedp.Text(`#status`)), "success")
	assert.False(t, js[bool](t, ctx, `document.getElementById('pwned') !== null`), "text from the server never becomes markup")
}

// TestViewerLive follows a run while it runs: the retrieving step shows
// as running, then Cancel ends the run as cancelled.
func TestViewerLive(t *testing.T) {
	ctx := browser(t)
	gated := newFixtures(t)
	gated.gate = make(chan struct{})
	t.Cleanup(func() { close(gated.gate) })
	s := start(t, gated, server.Config{})
	do(t, ctx, chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(`#query`),
		chromedp.SendKeys(`#query`, question), chromedp.Click(`#ask-button`))
	<-gated.fetched
	do(t, ctx, chromedp.WaitVisible(`#graph g.node.st-running`), chromedp.WaitVisible(`#cancel-button`))
	assert.Equal(t, "running", get(t, ctx, chromedp.AttributeValue(`#status`, "data-state")).Value)
	assert.Contains(t, get(t, ctx, chromedp.Text(`#progress`)), "started")
	shot := artifact(t, "viewer-running.png")
	require.NoError(t, os.WriteFile(shot, get(t, ctx, chromedp.CaptureScreenshot()), 0o644))
	t.Logf("screenshot: %s", shot)

	do(t, ctx, chromedp.Click(`#cancel-button`), ended())
	assert.Contains(t, get(t, ctx, chromedp.Text(`#status`)), "cancelled")
	assert.False(t, js[bool](t, ctx, `!document.getElementById('cancel-button').hidden`), "Cancel hides once the run ended")
}

// TestViewerModules checks the page's modules where they run, in the
// browser: the layout's levels, the steps a refinement added, the
// Markdown renderer and the links it allows.
func TestViewerModules(t *testing.T) {
	ctx := browser(t)
	s := start(t, newFixtures(t), server.Config{})
	do(t, ctx, chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(`#query`))
	tests := []struct {
		name, expr, want string
	}{
		{"levels of a diamond", `Object.fromEntries((await import('/ui/graph.js')).levels([
			{id: 'a', deps: []}, {id: 'b', deps: ['a']}, {id: 'c', deps: ['a']}, {id: 'd', deps: ['b', 'c']}]))`,
			`{"a":0,"b":1,"c":1,"d":2}`},
		{"a cycle and an unknown dependency end", `Object.fromEntries((await import('/ui/graph.js')).levels([
			{id: 'x', deps: ['y']}, {id: 'y', deps: ['x']}, {id: 'z', deps: ['nosuch']}]))`,
			`{"x":1,"y":0,"z":0}`},
		{"a step a refinement added is its target's sibling", `(await import('/ui/graph.js')).added(
			[{id: 'h0', deps: []}, {id: 'h1', deps: ['h0']}],
			[{id: 'h0'}, {id: 'h1'}, {id: 'h1b', action: 'retrieve', description: 'more'}],
			[{op: 'ADD', target_step_id: 'h1', new_step_id: 'h1b'}]).map(s => [s.id, s.deps, !!s.added])`,
			`[["h0",[],false],["h1",["h0"],false],["h1b",["h0"],true]]`},
		{"markdown is built as text", `(() => import('/ui/markdown.js').then(m => {
			const d = document.createElement('div');
			d.append(...m.render('# T\n\n| a | b |\n| --- | --- |\n| ` + "`x`" + ` | [l](javascript:alert(1)) |\n\n- <b>x</b> **y**\n\n[doc](https://example.com/a_(b))'));
			return d.innerHTML; }))()`,
			`"<h3>T</h3><table><thead><tr><th scope=\"col\">a</th><th scope=\"col\">b</th></tr></thead><tbody><tr><td><code>x</code></td><td>l</td></tr></tbody></table>` +
				`<ul><li>&lt;b&gt;x&lt;/b&gt; <strong>y</strong></li></ul>` +
				`<p><a href=\"https://example.com/a_(b)\" target=\"_blank\" rel=\"noopener noreferrer\">doc</a></p>"`},
		{"links go to http and https only", `['https://a/x', 'javascript:alert(1)', 'data:text/html,x', '/v1/runs', 'http://h']
			.map((await import('/ui/dom.js')).safeURL)`,
			`["https://a/x",null,null,null,"http://h/"]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := get(t, ctx, chromedp.Evaluate[string](`(async () => JSON.stringify(await (async () => `+tt.expr+`)()))()`,
				chromedp.EvalAwaitPromise))
			assert.JSONEq(t, tt.want, got)
		})
	}
}
