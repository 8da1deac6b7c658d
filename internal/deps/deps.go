package deps

import (
	_ "github.com/expr-lang/expr"
	_ "github.com/go-git/go-git/v5"
	_ "github.com/hashicorp/go-hclog"
	_ "github.com/hashicorp/go-plugin"
	_ "github.com/hashicorp/hcl/v2"
	_ "github.com/hashicorp/hcl/v2/hclwrite"
	_ "github.com/owenrumney/go-sarif/v2/sarif"
	_ "github.com/spf13/cobra"
	_ "github.com/stretchr/testify/require"
	_ "github.com/zclconf/go-cty/cty"
	_ "gitlab.com/gitlab-org/api/client-go"
	_ "golang.org/x/term"
	_ "google.golang.org/grpc"
	_ "google.golang.org/protobuf/proto"
)
