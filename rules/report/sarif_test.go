package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/nous-dev/nous/rules"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sarifLog holds the parts of a SARIF 2.1.0 log the schema constrains and
// code scanning tools (GitHub, GitLab) rely on.
type sarifLog struct {
	Version *string `json:"version"`
	Schema  string  `json:"$schema"`
	Runs    []struct {
		ColumnKind string `json:"columnKind"`
		Tool       *struct {
			Driver *struct {
				Name  *string `json:"name"`
				Rules []struct {
					ID               *string `json:"id"`
					ShortDescription *struct {
						Text *string `json:"text"`
					} `json:"shortDescription"`
					DefaultConfiguration struct {
						Level string `json:"level"`
					} `json:"defaultConfiguration"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Artifacts []struct {
			Location struct {
				URI string `json:"uri"`
			} `json:"location"`
		} `json:"artifacts"`
		Results *[]struct {
			RuleID    string `json:"ruleId"`
			RuleIndex *int   `json:"ruleIndex"`
			Level     string `json:"level"`
			Message   *struct {
				Text *string `json:"text"`
			} `json:"message"`
			Locations []struct {
				PhysicalLocation *struct {
					ArtifactLocation *struct {
						URI *string `json:"uri"`
					} `json:"artifactLocation"`
					Region *struct {
						StartLine   *int `json:"startLine"`
						StartColumn *int `json:"startColumn"`
						EndLine     *int `json:"endLine"`
						EndColumn   *int `json:"endColumn"`
					} `json:"region"`
				} `json:"physicalLocation"`
			} `json:"locations"`
		} `json:"results"`
	} `json:"runs"`
}

var sarifLevels = map[string]bool{"": true, "none": true, "note": true, "warning": true, "error": true}

// assertValidSARIF checks the structural rules of the SARIF 2.1.0 schema:
// required properties, enums, 1-based regions, and rule references that
// resolve.
func assertValidSARIF(t *testing.T, out []byte) sarifLog {
	t.Helper()
	var log sarifLog
	require.NoError(t, json.Unmarshal(out, &log))
	require.NotNil(t, log.Version, "version is required")
	assert.Equal(t, "2.1.0", *log.Version)
	assert.Contains(t, log.Schema, "sarif-schema-2.1.0.json")
	require.NotNil(t, log.Runs, "runs is required")
	for _, run := range log.Runs {
		require.NotNil(t, run.Tool, "run.tool is required")
		require.NotNil(t, run.Tool.Driver, "tool.driver is required")
		require.NotNil(t, run.Tool.Driver.Name, "driver.name is required")
		assert.Contains(t, []string{"", "utf16CodeUnits", "unicodeCodePoints"}, run.ColumnKind)
		ids := map[string]int{}
		for i, r := range run.Tool.Driver.Rules {
			require.NotNil(t, r.ID, "rule id is required")
			require.NotNil(t, r.ShortDescription, "rule %s: shortDescription", *r.ID)
			require.NotNil(t, r.ShortDescription.Text, "a multiformat message needs text")
			assert.True(t, sarifLevels[r.DefaultConfiguration.Level])
			ids[*r.ID] = i
		}
		uris := map[string]bool{}
		for _, a := range run.Artifacts {
			uris[a.Location.URI] = true
		}
		require.NotNil(t, run.Results, "results must be present (empty when clean)")
		for _, res := range *run.Results {
			require.NotNil(t, res.Message, "result.message is required")
			require.NotNil(t, res.Message.Text, "message.text is required")
			assert.True(t, sarifLevels[res.Level], "level %q", res.Level)
			index, known := ids[res.RuleID]
			assert.True(t, known, "ruleId %q is one of the driver's rules", res.RuleID)
			if res.RuleIndex != nil {
				assert.Equal(t, index, *res.RuleIndex, "ruleIndex points at ruleId")
			}
			for _, loc := range res.Locations {
				pl := loc.PhysicalLocation
				require.NotNil(t, pl)
				require.NotNil(t, pl.ArtifactLocation)
				require.NotNil(t, pl.ArtifactLocation.URI)
				assert.True(t, uris[*pl.ArtifactLocation.URI], "artifact %q listed", *pl.ArtifactLocation.URI)
				require.NotNil(t, pl.Region)
				require.NotNil(t, pl.Region.StartLine)
				assert.GreaterOrEqual(t, *pl.Region.StartLine, 1)
				if pl.Region.StartColumn != nil {
					assert.GreaterOrEqual(t, *pl.Region.StartColumn, 1)
				}
				if pl.Region.EndLine != nil {
					assert.GreaterOrEqual(t, *pl.Region.EndLine, *pl.Region.StartLine)
				}
				if pl.Region.EndColumn != nil {
					assert.GreaterOrEqual(t, *pl.Region.EndColumn, 1)
				}
			}
		}
	}
	return log
}

func TestSARIFIsStructurallyValid(t *testing.T) {
	src := "agent \"a\" { plugin = \"x\" }\nsource \"s\" { plugin = 1.5e400 }\n"
	rs, diags := rules.Parse("dir/a.hcl", []byte(src))
	diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "no subject"},
		rules.Warning(rules.CheckUnused, hcl.Range{Filename: "dir/a.hcl", Start: hcl.Pos{Line: 1, Column: 1}, End: hcl.Pos{Line: 1, Column: 5}}, "Unused agent", ""))
	for name, in := range map[string]Input{
		"findings": {Diagnostics: diags, Files: rs.Files()},
		"clean":    {Files: rs.Files()},
	} {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			require.NoError(t, Write(&buf, "sarif", in))
			log := assertValidSARIF(t, buf.Bytes())
			assert.Len(t, *log.Runs[0].Results, len(in.Diagnostics))
		})
	}
}

func TestLintGoldenSARIFIsStructurallyValid(t *testing.T) {
	out, err := os.ReadFile(filepath.Join("..", "lint", "testdata", "golden", "broken.sarif"))
	require.NoError(t, err)
	log := assertValidSARIF(t, out)
	assert.Len(t, *log.Runs[0].Results, len(rules.Checks)-1, "the broken rules seed one finding per check but plugin-config, which needs lint --plugins")
}
