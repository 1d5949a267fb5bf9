package tools

import (
	"context"
	"errors"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"maison/camera"
	"maison/homeassistant"
	"maison/panel"
	"maison/words"
)

// camera_panel is the camera panel's own tool: offered only to a client
// that renders MCP Apps, and there only to the panel's view (visibility
// "app"), never to a model. Its pictures are camera_snapshot's: found among
// the cameras the caller may see, repaired, fitted, within the result
// budget, on the audit log, said in the same words.
var cameraPanelTool = &mcp.Tool{
	Name:        "camera_panel",
	Title:       "Camera panel",
	Description: "For the camera panel's view only. Without camera, returns the cameras the panel shows and the panel's words; with camera, that camera's current picture and spoken description, as camera_snapshot returns them, with the time the picture was taken.",
	Annotations: &mcp.ToolAnnotations{Title: "Camera panel", ReadOnlyHint: true, IdempotentHint: true, DestructiveHint: no(), OpenWorldHint: no()},
	Meta:        mcp.Meta{"ui": map[string]any{"resourceUri": panel.URI, "visibility": []string{"app"}}},
}

// argPanelCamera is camera_panel's camera: the entity id the listing gave.
var argPanelCamera = argSpec{name: "camera", kind: argText,
	doc:   "The camera's entity id, as the listing gave it, such as camera.garage. Without it, the listing.",
	wants: words.WantsCameraID}

// cameraPanelDef is camera_panel whole: the tool, its argument, the
// handler, and that only the panel's view is offered it.
func (s *server) cameraPanelDef() toolDef {
	return toolDef{tool: cameraPanelTool, args: []argSpec{argPanelCamera}, handle: s.cameraPanel, appOnly: true}
}

// panelListing is what the view is told with the camera list.
type panelListing struct {
	Lang   string          `json:"lang"`
	Labels words.PanelPage `json:"labels"`
	// TimeZone is the house's (Home Assistant's), in which the view says
	// the time of day, as the words and the frames' overlays do, whatever
	// the host's or the browser's zone. Empty when Home Assistant names
	// none this machine knows: the view then keeps the host's.
	TimeZone string        `json:"time_zone,omitempty"`
	Cameras  []panelCamera `json:"cameras"`
}

type panelCamera struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Area string `json:"area,omitempty"`
}

// panelPicture is what the view is told with a picture, or its absence.
type panelPicture struct {
	Camera string `json:"camera"`
	// State is ok, damaged (only part of the picture decodes), off,
	// unavailable, slow or error; the words say the rest.
	State string `json:"state"`
	// TakenAt is when maison received the picture, the time its words
	// say it was taken; Now is maison's clock as it answered, against
	// which the words said the picture's age. The view counts the age
	// from both and its own elapsed time, never its own clock.
	TakenAt *time.Time `json:"taken_at,omitempty"`
	Now     *time.Time `json:"now,omitempty"`
}

// houseZone names the house's time zone as the view's Intl reads it (an
// IANA name), or "" when houseLocation falls back on the machine's.
func (s *server) houseZone() string {
	if loc := s.houseLocation(); loc != time.Local {
		return loc.String()
	}
	return ""
}

// pictureFacts is what the view is told of a snapshot's picture: the
// camera, its state, and when it was taken against maison's clock.
func (s *server) pictureFacts(snap camera.Snapshot, failed *mcp.CallToolResult, err error) panelPicture {
	facts := panelPicture{Camera: snap.EntityID, State: pictureState(snap, failed, err)}
	if failed == nil {
		taken, now := snap.Fetched.UTC(), s.now().UTC()
		facts.TakenAt, facts.Now = &taken, &now
	}
	return facts
}

func (s *server) cameraPanel(ctx context.Context, req *mcp.CallToolRequest, in argValues) *mcp.CallToolResult {
	if id := in.text("camera"); id != "" {
		return s.panelPicture(ctx, id)
	}
	cams, _, err := s.deps.Cameras.Listing(ctx)
	if err != nil {
		return sayError(s.haTrouble(err))
	}
	res := s.listCameras(ctx, req, in) // the same words as list_cameras, for a host that shows text
	page := words.Panel(s.deps.Lang)
	list := panelListing{Lang: page.Lang, Labels: page, TimeZone: s.houseZone(), Cameras: []panelCamera{}}
	for _, c := range cams {
		list.Cameras = append(list.Cameras, panelCamera{ID: c.EntityID, Name: words.Name(c.Name), Area: words.Name(c.Area)})
	}
	res.StructuredContent = list
	return res
}

// panelPicture is one camera's picture as camera_snapshot gives it, with
// its state and time for the view.
func (s *server) panelPicture(ctx context.Context, id string) *mcp.CallToolResult {
	snap, res, err := s.snapshot(ctx, id, camera.Region{})
	facts := s.pictureFacts(snap, res, err)
	if res == nil {
		res = s.snapshotResult(snap)
	}
	if facts.Camera != "" {
		res.StructuredContent = facts
	}
	return res
}

// pictureState is what the view marks a camera with.
func pictureState(snap camera.Snapshot, failed *mcp.CallToolResult, err error) string {
	switch {
	case errors.Is(err, homeassistant.KindCameraOff) || snap.Off:
		return "off"
	case snap.State == "unavailable":
		return "unavailable"
	case errors.Is(err, homeassistant.KindTimeout) || errors.Is(err, context.DeadlineExceeded):
		return "slow"
	case failed != nil:
		return "error"
	case snap.Damage != nil:
		return "damaged"
	}
	return "ok"
}
