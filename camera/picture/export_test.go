package picture

// Exported for the external tests, which name parts of the picture with
// camera.ParseRegion.
var (
	Upright         = upright
	LumaStats       = lumaStats
	WithOrientation = withOrientation
)
