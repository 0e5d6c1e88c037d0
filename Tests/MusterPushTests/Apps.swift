import MusterPlatform
import MusterPush
import MusterRuntime

/// What these tests compose: the platform (keys, people, devices) and pushes.
let apps = MusterApps([PlatformApp(), PushApp()])
