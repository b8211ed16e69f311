-- contact_messages was never written or read: the contact form files its requests in
-- support_messages (0008).
DROP TABLE `contact_messages`;
