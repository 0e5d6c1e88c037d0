import MusterField
import MusterPlatform
import MusterRuntime

/// What these tests compose: the field app on the platform (people, keys).
let apps = MusterApps([PlatformApp(), FieldApp()])
