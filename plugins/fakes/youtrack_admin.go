package fakes

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// youtrackProjectNames are the full names of the generated projects.
var youtrackProjectNames = map[string]string{"ABC": "Alpha Billing Core", "DEF": "Delivery Frontend"}

// serveAdmin answers GET {Prefix}/api/admin/projects (the projects, as
// id, name, shortName and archived) and
// {Prefix}/api/admin/customFieldSettings/bundles/state (one state bundle
// with its values' name and isResolved), both paged by $skip and $top and
// reduced to id and $type without `fields`, as YouTrack does.
func (y *YouTrack) serveAdmin(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	full := q.Get("fields") != ""
	var items []map[string]any
	switch strings.TrimPrefix(r.URL.Path, y.Prefix+"/api/admin/") {
	case "projects":
		var seen []string
		for _, is := range y.Issues {
			if !slices.Contains(seen, is.Project) {
				seen = append(seen, is.Project)
			}
		}
		for i, p := range seen {
			item := map[string]any{"id": "0-" + strconv.Itoa(i), "$type": "Project"}
			if full {
				name := youtrackProjectNames[p]
				if name == "" {
					name = p
				}
				item["name"], item["shortName"], item["archived"] = name, p, false
			}
			items = append(items, item)
		}
	case "customFieldSettings/bundles/state":
		item := map[string]any{"id": "68-0", "$type": "StateBundle"}
		if full {
			var values []map[string]any
			for i, st := range youtrackStates {
				values = append(values, map[string]any{"id": "69-" + strconv.Itoa(i), "name": st.name, "isResolved": st.resolved, "$type": "StateBundleElement"})
			}
			item["name"], item["values"] = "States", values
		}
		items = append(items, item)
	default:
		gitlabError(w, http.StatusNotFound, `{"error":"Not Found","error_description":"HTTP 404 Not Found"}`)
		return
	}
	skip := max(atoiOr(q.Get("$skip"), 0), 0)
	top := atoiOr(q.Get("$top"), 42)
	from, to := min(skip, len(items)), min(skip+max(top, 0), len(items))
	w.Header().Set("Content-Type", "application/json;charset=UTF-8")
	_ = json.NewEncoder(w).Encode(items[from:to])
}
