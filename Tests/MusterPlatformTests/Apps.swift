import MusterPlatform
import MusterRuntime

/// What these tests compose: the platform alone.
let apps = MusterApps([PlatformApp()])
