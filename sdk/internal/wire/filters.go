package wire

import pb "github.com/nous-dev/nous/sdk/internal/proto"

// FiltersToProto converts fetch filters (key → values).
func FiltersToProto(filters map[string][]string) map[string]*pb.StringList {
	if len(filters) == 0 {
		return nil
	}
	out := make(map[string]*pb.StringList, len(filters))
	for k, vs := range filters {
		out[ValidUTF8(k)] = StringsToProto(vs)
	}
	return out
}

// FiltersFromProto converts fetch filters; a key with a missing list keeps
// an empty list.
func FiltersFromProto(filters map[string]*pb.StringList) map[string][]string {
	if len(filters) == 0 {
		return nil
	}
	out := make(map[string][]string, len(filters))
	for k, l := range filters {
		out[k] = StringsFromProto(l)
	}
	return out
}
