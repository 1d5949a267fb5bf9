package camera

// ErrNoPicture is errNoPicture, for the external tests.
var ErrNoPicture = errNoPicture
