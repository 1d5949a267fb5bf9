package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/camera"
	"maison/words"
)

// DefaultResultBudget is the most characters a whole serialized tool result
// may take by default (see camera.DefaultResultBudget).
const DefaultResultBudget = camera.DefaultResultBudget

// envelope is what the JSON-RPC response adds around a result
// ({"jsonrpc":"2.0","id":…,"result":…} and the 2026 resultType), with room
// for a long request id.
const envelope = 256

// resultSize is how many bytes the result takes once serialized as the SDK
// does (no HTML escaping), plus the envelope. Bytes are never fewer than
// characters, so a result within the budget in bytes is within it in
// characters too.
func resultSize(r *mcp.CallToolResult) int {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(r) != nil {
		return 0
	}
	return buf.Len() - 1 + envelope
}

func base64Len(n int) int { return (n + 2) / 3 * 4 }

// fitBudget guards the result budget, whatever tool made the result,
// present or future. The camera service encodes every picture once within
// its share of the budget (camera.Config.ResultBudget), so a result over
// it is a bug, logged as a warning; the last resort then fits its pictures
// again (picture.FitBytes, strictly checked like every picture), quality
// first and then size, until the whole result fits. A picture made much
// smaller than usual is said in its text; anything else is not.
func (s *server) fitBudget(ctx context.Context, r *mcp.CallToolResult) {
	budget := s.deps.ResultBudget
	for try := 0; try < 3; try++ {
		size := resultSize(r)
		if size <= budget || ctx.Err() != nil {
			return
		}
		if try == 0 {
			s.log.Warn("a tool result is over the result budget, though its pictures were fitted to it; fitting them again", "chars", size, "budget", budget)
		}
		var imgs []*mcp.ImageContent
		total := 0
		for _, c := range r.Content {
			if img, ok := c.(*mcp.ImageContent); ok && img.MIMEType == "image/jpeg" && len(img.Data) > 0 {
				imgs = append(imgs, img)
				total += base64Len(len(img.Data))
			}
		}
		if len(imgs) == 0 {
			s.log.Warn("a tool result is over the result budget and carries no picture to shrink", "chars", size, "budget", budget)
			return
		}
		avail := budget - (size - total)
		smaller := false
		for _, img := range imgs {
			share := avail * base64Len(len(img.Data)) / total
			maxBytes := share / 4 * 3
			if try > 0 {
				maxBytes = maxBytes * 9 / 10
			}
			fit, err := s.deps.Cameras.Refit(ctx, img.Data, max(maxBytes, 1))
			if err != nil {
				s.log.Warn("a picture could not be fitted within the result budget", "err", err, "budget", budget)
				r.Content = dropImage(r.Content, img)
				s.note(r, words.PictureLeftOut.In(s.deps.Lang))
				continue
			}
			img.Data = fit.JPEG
			smaller = smaller || fit.MuchSmaller()
		}
		if smaller {
			s.smallerNote(r)
		}
	}
}

// smallerNote says, once, that the picture had to be made much smaller
// than usual.
func (s *server) smallerNote(r *mcp.CallToolResult) {
	s.note(r, words.PictureMadeSmaller.In(s.deps.Lang))
}

// note adds a sentence to the result's last text, once.
func (s *server) note(r *mcp.CallToolResult, sentence string) {
	for i := len(r.Content) - 1; i >= 0; i-- {
		if tc, ok := r.Content[i].(*mcp.TextContent); ok {
			if !strings.Contains(tc.Text, sentence) {
				tc.Text = strings.TrimSpace(tc.Text + " " + sentence)
			}
			return
		}
	}
	r.Content = append(r.Content, &mcp.TextContent{Text: sentence})
}

func dropImage(cs []mcp.Content, img *mcp.ImageContent) []mcp.Content {
	out := cs[:0:0]
	for _, c := range cs {
		if c != mcp.Content(img) {
			out = append(out, c)
		}
	}
	return out
}
