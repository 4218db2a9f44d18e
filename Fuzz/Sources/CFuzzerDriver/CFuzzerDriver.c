// SwiftPM needs a source file in a C target; the declaration in the header is all there is.
#include "CFuzzerDriver.h"
