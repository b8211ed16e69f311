// The most common leaked passwords of 8+ characters (the only length our rules accept),
// compared case-insensitively. Short on purpose: it ships with the Worker bundle.
const COMMON = `
password password1 password12 password123 password1234 password!
passw0rd p@ssw0rd p@ssword p@55w0rd pa$$word pa$$w0rd
12345678 123456789 1234567890 0123456789 87654321 11111111 00000000 12341234 11223344
qwerty123 qwerty1234 qwertyuiop qwerty12 qwerty123! 1q2w3e4r 1q2w3e4r5t 1qaz2wsx
zaq12wsx q1w2e3r4 q1w2e3r4t5 asdfghjkl asdf1234 zxcvbnm1 abcd1234 abc12345 abcdefg1
iloveyou iloveyou1 iloveyou2 letmein1 letmein123 welcome1 welcome123 welcome! welcome1!
sunshine sunshine1 princess princess1 football football1 baseball baseball1 basketball
superman superman1 batman123 starwars starwars1 whatever trustno1 dragon123 monkey123
master123 shadow123 michael1 jennifer1 jordan23 charlie1 computer computer1 internet
changeme changeme1 changeme123 default1 admin123 admin1234 administrator root1234
secret123 letmein! iloveu123 freedom1 mustang1 liverpool chelsea1 arsenal1 soccer123
summer2024 summer2025 summer2026 winter2024 winter2025 winter2026 spring2025 autumn2025
january1 december1 monday123 hello123 hello1234 helloworld test1234 testing123
qazwsxedc 1qaz@wsx passw0rd! passw0rd1 password1! password123! password2024 password2025
password2026 p@ssw0rd1 p@ssw0rd! p@ssword1 welcome@123 admin@123 india@123 pass@123
pass@1234 abc@1234 test@123 qwerty@123 modelify modelify1 modelify123 modelify!
`
  .split(/\s+/)
  .filter(Boolean);

const COMMON_SET = new Set(COMMON);

export function isCommonPassword(password: string): boolean {
  return COMMON_SET.has(password.toLowerCase());
}
