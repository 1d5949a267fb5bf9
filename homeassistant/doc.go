// Package homeassistant is maison's client of Home Assistant, used as a non-admin, local-only user through
// three interfaces:
//
//   - the websocket API (/api/websocket): authentication, the current user (an administrator's token is
//     refused), the configuration, the area/device/entity registries and a live state cache kept by
//     subscribe_entities, with pings and capped, jittered reconnects; it also carries ai_task.generate_data,
//     which has Home Assistant's AI describe a camera frame (AITasks, DescribeImage);
//   - the camera proxy (/api/camera_proxy/<entity_id>) for frames;
//   - the MCP server's Assist endpoint (/api/mcp/assist, or /api/mcp on older releases), which offers only
//     what an administrator exposed to Assist.
//
// The Assist client is hand-rolled JSON-RPC over plain POSTs, not go-sdk's client: Home Assistant's endpoint is
// stateless and answers each POST with one JSON message; go-sdk's client probes server/discover first and turns a
// plain-text 401 into a dead connection with a string error, while this package needs the HTTP status to map it
// and must never repeat a 401. Assist calls are sequential per Client (Home Assistant reportedly crashed under
// parallel sessionless traffic).
//
// Every failure is an *Error whose Kind says what happened (errors.Is(err, KindUnreachable)) and whose Case
// what its details add, for the words (maison/words) that tell the operator what to do; a websocket command's
// error code is a *CommandError inside it.
// A refused token (HTTP 401 or auth_invalid) is never retried: Home Assistant counts each as a failed login
// and may ban the address.
package homeassistant
