package gitlab

import (
	"context"
	"fmt"
	"strconv"

	gl "gitlab.com/gitlab-org/api/client-go"

	"github.com/nous-dev/nous/sdk"
)

// fetchPipelines lists a project's pipelines; authors filter by the
// username that triggered them, ref by branch or tag.
func (r *fetchRun) fetchPipelines(ctx context.Context, sc scope, pageSize int) error {
	q := r.q
	opt := &gl.ListProjectPipelinesOptions{
		Ref:      ptr(q.ref),
		Username: ptr(sc.author),
		OrderBy:  ptr("id"),
		Sort:     ptr("desc"),
	}
	if sc.status != "" {
		status := gl.BuildStateValue(sc.status)
		opt.Status = &status
	}
	opt.CreatedAfter, opt.CreatedBefore, opt.UpdatedAfter, opt.UpdatedBefore = q.dateBounds()
	list := func(lo gl.ListOptions, ro ...gl.RequestOptionFunc) ([]*gl.PipelineInfo, *gl.Response, error) {
		o := *opt
		o.ListOptions = lo
		return r.client.Pipelines.ListProjectPipelines(sc.project, &o, ro...)
	}
	return paginate(ctx, r.policy, sc.project, pageSize, list, func(p *gl.PipelineInfo) error {
		if p == nil {
			return nil
		}
		return r.out(pipelineRecord(p, sc.project, sc.author, q.dateField))
	})
}

func pipelineRecord(p *gl.PipelineInfo, project, author, dateField string) sdk.Record {
	fields := map[string]any{
		"project":     project,
		"pipeline_id": p.ID,
		"iid":         p.IID,
		"state":       p.Status,
		"ref":         p.Ref,
		"sha":         p.SHA,
		"trigger":     p.Source,
		"name":        p.Name,
	}
	if p.CreatedAt != nil {
		fields["created_at"] = p.CreatedAt.UTC()
	}
	if p.UpdatedAt != nil {
		fields["updated_at"] = p.UpdatedAt.UTC()
	}
	title := fmt.Sprintf("Pipeline #%d %s on %s", p.ID, p.Status, p.Ref)
	if p.Name != "" {
		title += ": " + p.Name
	}
	return sdk.Record{
		ID:     strconv.FormatInt(p.ID, 10),
		Source: "gitlab",
		Kind:   sdk.KindPipeline,
		Title:  title,
		URL:    p.WebURL,
		Author: author,
		Time:   recordTime(dateField, p.CreatedAt, p.UpdatedAt),
		Fields: dropEmpty(fields),
	}
}
