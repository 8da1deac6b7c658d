package server_test

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/nous-dev/nous/engine/server"
)

// BenchmarkViewerFirstPaint loads the run viewer in headless chromium over
// loopback, once an iteration, and reports the browser's own timings of
// the load: first contentful paint and DOMContentLoaded, in milliseconds
// from the navigation's start.
func BenchmarkViewerFirstPaint(b *testing.B) {
	ctx := browser(b)
	s := start(b, newFixtures(b), server.Config{})
	var paint, loaded float64
	b.ReportAllocs() // the driver's own: the page runs in the browser
	for b.Loop() {
		do(b, ctx, chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(`#query`),
			chromedp.Poll[chromedp.Void](`performance.getEntriesByName('first-contentful-paint').length > 0 && `+
				`performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd > 0`))
		paint += js[float64](b, ctx, `performance.getEntriesByName('first-contentful-paint')[0].startTime`)
		loaded += js[float64](b, ctx, `performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd`)
	}
	b.ReportMetric(paint/float64(b.N), "first-paint-ms")
	b.ReportMetric(loaded/float64(b.N), "dom-loaded-ms")
}
