import MusterOPL
import MusterPlatform
import MusterRuntime

/// What these tests compose: OPL on the platform it stands on.
let apps = MusterApps([PlatformApp(), OPLApp()])
