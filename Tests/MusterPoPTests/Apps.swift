import MusterPlatform
import MusterPoP
import MusterRuntime

/// What these tests compose: PoP on the platform.
let apps = MusterApps([PlatformApp(), PoPApp()])
