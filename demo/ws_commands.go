// The websocket commands the demo answers, one handler each, looked up by
// type in wsCommands.

package demo

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
)

// wsCommand answers one websocket command. ctx ends with the connection.
type wsCommand func(h *House, ctx context.Context, c *wsConn, id int64, msg map[string]any)

// wsCommands are the commands the demo answers, by type; any other is an
// unknown command, as Home Assistant says.
var wsCommands = map[string]wsCommand{
	"supported_features":                      plain((*House).wsSupportedFeatures),
	"ping":                                    plain((*House).wsPing),
	"get_states":                              answer((*House).getStates),
	"subscribe_entities":                      plain((*House).subscribeEntities),
	"subscribe_events":                        plain((*House).wsSubscribeEvents),
	"unsubscribe_events":                      plain((*House).wsUnsubscribeEvents),
	"auth/current_user":                       plain((*House).wsCurrentUser),
	"get_config":                              plain((*House).wsGetConfig),
	"config/area_registry/list":               answer((*House).areaList),
	"config/floor_registry/list":              answer((*House).floorList),
	"config/label_registry/list":              answer(emptyList),
	"config/device_registry/list":             answer((*House).deviceList),
	"config/entity_registry/list_for_display": answer((*House).entityDisplayList),
	"config/entity_registry/list":             answer((*House).entityList),
	"config/entity_registry/get":              plain((*House).wsRegistryGet),
	"config/entity_registry/get_entries":      plain((*House).wsRegistryGetEntries),
	"history/history_during_period":           plain((*House).historyDuringPeriod),
	"logbook/get_events":                      plain((*House).logbookGetEvents),
	"call_service":                            (*House).wsCallService,
	"homeassistant/expose_entity/list":        answer((*House).exposedEntities),
	"config/auth/list":                        answer((*House).authList),
}

// plain is a command that does not outlive its answer: it needs no context.
func plain(f func(h *House, c *wsConn, id int64, msg map[string]any)) wsCommand {
	return func(h *House, _ context.Context, c *wsConn, id int64, msg map[string]any) { f(h, c, id, msg) }
}

// answer is a command whose result depends on nothing it is asked.
func answer[T any](f func(h *House) T) wsCommand {
	return func(h *House, _ context.Context, c *wsConn, id int64, _ map[string]any) { c.result(id, f(h)) }
}

func emptyList(*House) []any { return []any{} }

func (h *House) wsSupportedFeatures(c *wsConn, id int64, msg map[string]any) {
	feats, _ := msg["features"].(map[string]any)
	v, _ := feats["coalesce_messages"].(json.Number)
	c.mu.Lock()
	c.coalesce = v == "1" || v == "true"
	c.mu.Unlock()
	c.result(id, nil)
}

func (h *House) wsPing(c *wsConn, id int64, _ map[string]any) {
	c.send(map[string]any{"id": id, "type": "pong"})
}

func (h *House) getStates() []any {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]any, 0, len(h.order))
	for _, eid := range h.order {
		out = append(out, fullState(eid, h.entities[eid].cur))
	}
	return out
}

func (h *House) wsSubscribeEvents(c *wsConn, id int64, msg map[string]any) {
	et, hasType := msg["event_type"].(string)
	if !c.user.isAdmin.Load() && (!hasType || !userEventTypes[et]) {
		c.fail(id, errUnauthorized, "Unauthorized.")
		return
	}
	c.mu.Lock()
	switch {
	case !hasType || et == "state_changed":
		c.eventSubs[id] = true
	case strings.HasSuffix(et, "_registry_updated"):
		c.regSubs[id] = et
	}
	b, _ := marshal(map[string]any{"id": id, "type": "result", "success": true, "result": nil})
	c.out = append(c.out, b)
	c.mu.Unlock()
	c.poke()
}

func (h *House) wsUnsubscribeEvents(c *wsConn, id int64, msg map[string]any) {
	n, _ := msg["subscription"].(json.Number)
	sid, err := strconv.ParseInt(string(n), 10, 64)
	c.mu.Lock()
	_, ok := c.subs[sid]
	_, reg := c.regSubs[sid]
	ok = ok || c.eventSubs[sid] || reg
	delete(c.subs, sid)
	delete(c.eventSubs, sid)
	delete(c.regSubs, sid)
	c.mu.Unlock()
	if err != nil || !ok {
		c.fail(id, errNotFound, "Subscription not found.")
		return
	}
	c.result(id, nil)
}

func (h *House) wsCurrentUser(c *wsConn, id int64, _ map[string]any) {
	c.result(id, map[string]any{
		"id":          c.user.id,
		"name":        c.user.name,
		"is_owner":    c.user.isOwner,
		"is_admin":    c.user.isAdmin.Load(),
		"credentials": []any{map[string]any{"auth_provider_type": "homeassistant", "auth_provider_id": nil}},
		"mfa_modules": []any{map[string]any{"id": "totp", "name": "Authenticator app", "enabled": false}},
	})
}

func (h *House) wsRegistryGet(c *wsConn, id int64, msg map[string]any) {
	eid, _ := msg["entity_id"].(string)
	if e, ok := h.registryEntry(eid); ok {
		c.result(id, e)
	} else {
		c.fail(id, errNotFound, "Entity not found")
	}
}

func (h *House) wsRegistryGetEntries(c *wsConn, id int64, msg map[string]any) {
	ids, _ := msg["entity_ids"].([]any)
	out := map[string]any{}
	for _, v := range ids {
		if eid, ok := v.(string); ok {
			e, found := h.registryEntry(eid)
			if !found {
				out[eid] = nil
				continue
			}
			out[eid] = e
		}
	}
	c.result(id, out)
}

func (h *House) exposedEntities() map[string]any {
	h.mu.Lock()
	defer h.mu.Unlock()
	exp := map[string]any{}
	for _, eid := range h.order {
		if e := h.entities[eid]; e.exposed {
			exp[eid] = map[string]any{"conversation": true}
		}
	}
	return map[string]any{"exposed_entities": exp}
}

func (h *House) authList() []any {
	list := []any{}
	for _, u := range []*user{h.admin, h.user} {
		list = append(list, map[string]any{
			"id": u.id, "name": u.name, "username": nil, "is_owner": u.isOwner, "is_active": true,
			"local_only": u.localOnly, "system_generated": false, "group_ids": groupIDs(u),
			"credentials": []any{map[string]any{"type": "homeassistant"}},
		})
	}
	return list
}

// userEventTypes are the events a non-admin user may subscribe to
// (websocket_api/permissions.py).
var userEventTypes = map[string]bool{
	"state_changed":                    true,
	"area_registry_updated":            true,
	"device_registry_updated":          true,
	"entity_registry_updated":          true,
	"floor_registry_updated":           true,
	"label_registry_updated":           true,
	"themes_updated":                   true,
	"panels_updated":                   true,
	"component_loaded":                 true,
	"core_config_updated":              true,
	"lovelace_updated":                 true,
	"persistent_notifications_updated": true,
}

func groupIDs(u *user) []string {
	if u.isAdmin.Load() {
		return []string{"system-admin"}
	}
	return []string{"system-users"}
}

// wsGetConfig is get_config: the core configuration, without external_url
// for a local-only user (websocket_api/commands.py, handle_get_config).
func (h *House) wsGetConfig(c *wsConn, id int64, _ map[string]any) {
	cfg := h.config()
	if c.user.localOnly {
		delete(cfg, "external_url")
	}
	c.result(id, cfg)
}

// config is Config.as_dict.
func (h *House) config() map[string]any {
	dirs := []string{"/config/www", "/media"}
	return map[string]any{
		"latitude": 48.8566, "longitude": 2.3522, "elevation": 35,
		"radius": 100,
		"unit_system": map[string]any{
			"length": "km", "accumulated_precipitation": "mm", "area": "m²", "mass": "g",
			"pressure": "Pa", "temperature": "°C", "volume": "L", "wind_speed": "m/s",
		},
		"location_name":           "Demo House",
		"time_zone":               h.loc.String(),
		"components":              []string{"api", "assist_pipeline", "camera", "conversation", "cover", "http", "light", "lock", "mcp_server", "sensor", "binary_sensor", "websocket_api"},
		"config_dir":              "/config",
		"allowlist_external_dirs": dirs,
		"whitelist_external_dirs": dirs, // kept by Home Assistant for older clients
		"logging":                 map[string]any{"log_file_disabled_reason": nil},
		"allowlist_external_urls": []string{},
		"version":                 h.version,
		"config_source":           "storage",
		"recovery_mode":           false,
		"safe_mode":               false,
		"state":                   "RUNNING",
		"external_url":            nil,
		"internal_url":            "http://demo-house.local:8123",
		"currency":                "EUR",
		"country":                 "FR",
		"language":                "en",
		"debug":                   false,
	}
}

func (h *House) areaList() []any {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := []any{}
	t := h.registryTime()
	for _, a := range h.areas {
		out = append(out, map[string]any{
			"area_id": a.id, "name": a.name, "aliases": append([]string{}, a.aliases...), "floor_id": nilIfEmpty(a.floor), "icon": nil,
			"labels": []string{}, "picture": nil, "humidity_entity_id": nil, "temperature_entity_id": nil,
			"created_at": t, "modified_at": t,
		})
	}
	return out
}

// floorList is config/floor_registry/list.
func (h *House) floorList() []any {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := []any{}
	t := h.registryTime()
	for i, f := range h.floors {
		out = append(out, map[string]any{
			"floor_id": f.id, "name": f.name, "aliases": append([]string{}, f.aliases...), "icon": nil, "level": i,
			"created_at": t, "modified_at": t,
		})
	}
	return out
}

func (h *House) deviceList() []any {
	out := []any{}
	t := h.registryTime()
	for _, d := range h.devices {
		entry := stableHex("entry:" + d.manufacturer)
		var next any // DeviceEntry.next_name_part: the area when the device has one
		if d.area != "" {
			next = "area"
		}
		out = append(out, map[string]any{
			"id": d.id, "area_id": nilIfEmpty(d.area), "name": d.name, "name_by_user": nil,
			"manufacturer": d.manufacturer, "model": d.model, "model_id": nil,
			"config_entries": []string{entry}, "config_entries_subentries": map[string]any{entry: []any{nil}},
			"config_entry_id": entry, "config_subentry_id": nil, "primary_config_entry": entry,
			"connections": []any{}, "identifiers": []any{[]string{"demo", d.id}},
			"disabled_by": nil, "entry_type": nil, "hw_version": nil, "sw_version": "1.0",
			"serial_number": nil, "via_device_id": nil, "parent_device_id": nil, "labels": []string{},
			"next_name_part": next, "configuration_url": nil, "created_at": t, "modified_at": t,
		})
	}
	return out
}

// entityDisplayList is config/entity_registry/list_for_display in its
// compact form: ei entity_id, pl platform, lb labels, and only when set di
// device, ai area (on the entry itself), np next name part, en name, dp
// display precision.
func (h *House) entityDisplayList() map[string]any {
	h.mu.Lock()
	defer h.mu.Unlock()
	list := []any{}
	for _, eid := range h.order {
		e := h.entities[eid]
		if !e.registered {
			continue // a state without a registry entry
		}
		m := map[string]any{"ei": e.id, "pl": e.platform, "lb": []any{}}
		if e.device != "" {
			m["di"] = e.device
		}
		if e.regArea && e.area != "" {
			m["ai"] = e.area
		}
		if np := e.nextNamePart(); np != nil {
			m["np"] = np
		}
		if e.name != "" {
			m["en"] = e.name
		}
		if e.precision != nil {
			m["dp"] = *e.precision
		}
		list = append(list, m)
	}
	return map[string]any{"entity_categories": map[string]string{"0": "config", "1": "diagnostic"}, "entities": list}
}

// wsCallService supports the services the house's entities offer,
// ai_task's, which has the demo's AI describe a frame, and Home Assistant's
// own notifications (notifications.go).
func (h *House) wsCallService(ctx context.Context, c *wsConn, id int64, msg map[string]any) {
	if msg["domain"] == "ai_task" {
		h.aiTaskService(ctx, c, id, msg)
		return
	}
	if msg["domain"] == "persistent_notification" && msg["service"] == "create" {
		h.createNotification(c, id, msg)
		return
	}
	domain, _ := msg["domain"].(string)
	service, _ := msg["service"].(string)
	var targets []string
	collect := func(v any) {
		switch t := v.(type) {
		case string:
			targets = append(targets, t)
		case []any:
			for _, x := range t {
				if s, ok := x.(string); ok {
					targets = append(targets, s)
				}
			}
		}
	}
	if t, ok := msg["target"].(map[string]any); ok {
		collect(t["entity_id"])
	}
	if d, ok := msg["service_data"].(map[string]any); ok {
		collect(d["entity_id"])
	}
	act, ok := serviceAction(domain, service)
	if !ok {
		// Home Assistant names the action it did not find for translation too.
		c.send(map[string]any{"id": id, "type": "result", "success": false, "error": map[string]any{
			"code": errNotFound, "message": "Service " + domain + "." + service + " not found.",
			"translation_key": "service_not_found", "translation_domain": "homeassistant",
			"translation_placeholders": map[string]any{"domain": domain, "service": service},
		}})
		return
	}
	h.mu.Lock()
	var ents []*entity
	for _, t := range targets {
		if e, ok := h.entities[t]; ok && entityDomain(t) == domain {
			ents = append(ents, e)
		}
	}
	ctxID := h.ulidLocked(h.now())
	var changed []*entity
	for _, e := range ents {
		if h.applyLocked(e, act, -1, c.user.id) {
			changed = append(changed, e)
		}
	}
	h.notifyLocked(changed...)
	h.mu.Unlock()
	c.result(id, map[string]any{"context": map[string]any{"id": ctxID, "parent_id": nil, "user_id": c.user.id}, "response": nil})
}
