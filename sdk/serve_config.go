package sdk

// ServeConfig names what a plugin binary serves: a Source, an Agent, or both.
type ServeConfig struct {
	Source Source
	Agent  Agent
}
