import Mustache

// The views a busy week repeats for every walk answer the template's names themselves: found
// through `Mirror` otherwise, each name of each walk cost a reflection of the whole struct, and
// rendering was half of the week page's time. A test renders each page and checks what it shows.

extension BusinessViews.Walk: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "time": time
        case "walker": walker
        case "customer": customer
        case "pet": pet
        case "service": service
        case "address": address
        case "status": status
        case "price": price
        case "pending": pending
        default: nil
        }
    }
}

extension BusinessViews.WalkerDay: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "walker": walker
        case "walks": walks
        default: nil
        }
    }
}

extension BusinessViews.WeekDay: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "label": label
        case "walks": walks
        default: nil
        }
    }
}

extension BusinessViews.WalkerWeek: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "walker": walker
        case "days": days
        default: nil
        }
    }
}

extension BusinessViews.Week: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "from": from
        case "previous": previous
        case "next": next
        case "days": days
        case "walkers": walkers
        case "zone": zone
        default: nil
        }
    }
}

extension BusinessViews.Today: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "requests": requests
        case "day": day
        case "previous": previous
        case "next": next
        case "walkers": walkers
        case "zone": zone
        default: nil
        }
    }
}
