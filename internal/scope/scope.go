// Package scope names the permissions a token may hold and says which one
// a tool or a prompt needs: the OAuth server grants them, the HTTP door and
// the tools' guard check them, `maison token` mints them. It imports
// nothing, so every one of them may import it.
package scope

// The scopes a caller may hold. A call over stdio, or through --no-auth on
// loopback, carries no token and may use everything.
const (
	Read    = "house.read"    // cameras, states, descriptions: every read-only tool, and the prompts
	Control = "house.control" // actions: every tool that can change something
)

// All is every scope, in the order they are offered.
func All() []string { return []string{Read, Control} }

// Tool is the scope a tool needs: Read for a tool annotated read-only,
// Control for any other, present or future.
func Tool(readOnly bool) string {
	if readOnly {
		return Read
	}
	return Control
}

// Prompt is the scope every prompt needs: prompts read the house.
const Prompt = Read

// Resource is the scope every resource needs (the camera panel's page): a
// token without it is offered no resource, no resources capability and
// no view, and reading one is refused as if it did not exist.
const Resource = Read
